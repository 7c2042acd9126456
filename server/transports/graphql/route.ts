/**
 * POST /graphql (specification part 4.3). The route is ours rather than mercurius's so that every reply is
 * JSON in the GraphQL error shape (reference.md "Every reply of /graphql is JSON, errors included"): bad JSON,
 * a wrong content type, a malformed body or query. Only POST runs documents; GET is refused, so a query with
 * side effects (`_admin_session` renews a cookie) cannot be triggered by a cross-site link.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError, HTTP_ERROR_MAP } from '../../kernel/errors.ts';
import { MAX_DOCUMENT_DEPTH, documentDepth } from './document-depth.ts';
import { boundedErrors } from './bounded-errors.ts';
import { formatGraphqlError, isRequestError, requestErrorStatus, unwrapErrors } from './errors.ts';

export const GRAPHQL_PATH = '/graphql';
const JSON_TYPE = 'application/json; charset=utf-8';

interface GraphqlBody {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readBody(request: FastifyRequest): GraphqlBody {
  const contentType = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/json') {
    throw Object.assign(AppError.invalid('Content-Type must be application/json'), { statusCode: 415 });
  }
  const body = request.body;
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

function statusFor(error: Error, errors: readonly Error[]): number {
  if (error instanceof AppError) {
    const own = (error as { statusCode?: unknown }).statusCode;
    return typeof own === 'number' ? own : HTTP_ERROR_MAP[error.kind].status;
  }
  return errors.every(isRequestError) ? requestErrorStatus(error) : 500;
}

/** A reply for a request that never reached execution: no `data` key (GraphQL spec 7.1.2), only errors. */
function sendFailure(request: FastifyRequest, reply: FastifyReply, error: Error): FastifyReply {
  const scope = { requestId: String(request.id), log: request.log as unknown as Logger };
  const errors = unwrapErrors(error);
  return reply.status(statusFor(error, errors)).type(JSON_TYPE).send({ errors: boundedErrors(errors.map((e) => formatGraphqlError(e, scope))) });
}

export async function graphqlRoutes(scope: FastifyInstance): Promise<void> {
  // Scoped to this plugin: body-parser failures (bad JSON, too large) of /graphql answer in GraphQL shape.
  scope.setErrorHandler((error: FastifyError, request, reply) => sendFailure(request, reply, error));

  scope.post(GRAPHQL_PATH, async (request, reply) => {
    const { query, variables, operationName } = readBody(request);
    const result = await reply.graphql(query, {}, variables, operationName);
    return reply.type(JSON_TYPE).send(result);
  });

  scope.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: GRAPHQL_PATH,
    handler: async (request, reply) => {
      reply.header('allow', 'POST');
      return sendFailure(request, reply, new AppError('method_not_allowed', `${request.method} is not allowed on ${GRAPHQL_PATH}; use POST`));
    },
  });
}
