/**
 * POST /graphql (docs/api-overview.md#http-endpoints-outside-v1). The route is ours rather than mercurius's so that every reply is
 * JSON in the GraphQL error shape (docs/sdk-compatibility.md#graphql-requests): bad JSON,
 * a wrong content type, a malformed body or query. Only POST runs documents; GET is refused, so a query with
 * side effects (`_admin_session` renews a cookie) cannot be triggered by a cross-site link.
 *
 * The GraphQL stack itself (runtime.ts) loads with the first request that needs it, error replies included;
 * this module and what it imports stay free of graphql-js, so the server starts without it.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';
import { AppError } from '../../kernel/errors.ts';
import { MAX_DOCUMENT_DEPTH, documentDepth } from './document-depth.ts';
import { GRAPHQL_PATH } from './refusal.ts';
import type { GraphqlRequest, GraphqlRuntime } from './runtime.ts';

export { GRAPHQL_PATH } from './refusal.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readBody(contentTypeHeader: unknown, body: unknown): GraphqlRequest {
  const contentType = String(contentTypeHeader ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw Object.assign(AppError.invalid('Content-Type must be application/json'), { statusCode: 415 });
  }
  if (!isPlainObject(body)) throw AppError.invalid('request body must be a JSON object {query, variables?, operationName?}');
  const { query, variables, operationName } = body;
  if (typeof query !== 'string' || query.trim() === '') throw AppError.invalid('query must be a non-empty string');
  if (documentDepth(query) > MAX_DOCUMENT_DEPTH) {
    throw AppError.invalid(`the query nests deeper than ${MAX_DOCUMENT_DEPTH} levels of braces, brackets or parentheses`);
  }
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) throw AppError.invalid('variables must be a JSON object');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw AppError.invalid('operationName must be a string');
  }
  return { query, variables: variables ?? undefined, operationName: operationName ?? undefined };
}

/** The runtime, built once on first use; concurrent first requests share the one being built. */
function lazyRuntime(deps: Deps, registry: Registry): { get(): Promise<GraphqlRuntime>; close(): Promise<void> } {
  let runtime: Promise<GraphqlRuntime> | undefined;
  return {
    get: () => (runtime ??= import('./runtime.ts').then(({ createGraphqlRuntime }) => createGraphqlRuntime(deps, registry))),
    close: async () => {
      if (runtime) await (await runtime.catch(() => undefined))?.close();
    },
  };
}

export function graphqlRoutes(deps: Deps, registry: Registry) {
  return async function graphqlRoutesPlugin(scope: FastifyInstance): Promise<void> {
    const runtime = lazyRuntime(deps, registry);
    scope.addHook('onClose', () => runtime.close());
    // Scoped to this plugin: body-parser failures (bad JSON, too large) of /graphql answer in GraphQL shape.
    scope.setErrorHandler(async (error: FastifyError, request, reply) => (await runtime.get()).sendFailure(request, reply, error));

    scope.post(GRAPHQL_PATH, async (request, reply) => {
      const body = readBody(request.headers['content-type'], request.body);
      const result = await (await runtime.get()).execute(reply, body);
      return reply.type(JSON_TYPE).send(result);
    });

    scope.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: GRAPHQL_PATH,
      handler: async (request, reply) => {
        reply.header('allow', 'POST');
        return (await runtime.get()).sendFailure(request, reply, new AppError('method_not_allowed', `${request.method} is not allowed on ${GRAPHQL_PATH}; use POST`));
      },
    });
  };
}
