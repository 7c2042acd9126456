/**
 * The GraphQL stack (graphql-js, mercurius and the schema generated from the registry), built with the first
 * /graphql request instead of at start: it is about a fifth of what the server evaluates at start and most
 * deployments call REST or gRPC. route.ts imports this module lazily (the bundle lowers the import to a
 * require, so it works inside the single executable) and keeps the one runtime it builds.
 *
 * mercurius runs on a private Fastify instance that never listens: registering a plugin on the main
 * instance is only possible before it starts. Its `graphql(source, context, ...)` is what `reply.graphql`
 * calls, with the same context (`reply`); each root field builds its own OpContext, runs the operation
 * through invoke() and turns its effects into real Set-Cookie headers, also when the operation fails (a
 * logout that clears a cookie). Errors map per errors.ts.
 *
 * GraphiQL (--enable-playground) is not served: mercurius's GraphiQL page loads React and GraphiQL from
 * unpkg.com, and this server loads nothing from the internet.
 */
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import type { ExecutionResult } from 'graphql';
import type { Logger } from 'pino';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';
import type { AnyOperation } from '../../ops/define.ts';
import { invoke } from '../../ops/invoke.ts';
import { AppError, HTTP_ERROR_MAP } from '../../kernel/errors.ts';
import { applyEffects, buildHttpContext } from '../http/request-context.ts';
import { noteLimited } from '../http/errors.ts';
import { buildGraphqlSchema } from './schema.ts';
import { graphqlValidationRules } from './validation-rules.ts';
import { formatGraphqlError, isRequestError, requestErrorStatus, unwrapErrors } from './errors.ts';
import { boundedErrors } from './bounded-errors.ts';

/** Parser cap against oversized documents; far above any real query of this schema. */
const MAX_TOKENS = 10_000;
const JSON_TYPE = 'application/json; charset=utf-8';

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface GraphqlRuntime {
  /** Runs a document for this request; mercurius sets the reply's status through the error formatter. */
  execute(reply: FastifyReply, request: GraphqlRequest): Promise<ExecutionResult>;
  /** A reply for a request that never reached execution: no `data` key (GraphQL spec 7.1.2), only errors. */
  sendFailure(request: FastifyRequest, reply: FastifyReply, error: Error): FastifyReply;
  close(): Promise<void>;
}

function runnerFor(deps: Deps) {
  return async (op: AnyOperation, input: unknown, context: unknown): Promise<unknown> => {
    const { reply } = context as { reply: FastifyReply };
    const ctx = buildHttpContext(deps, reply.request, 'graphql');
    try {
      return await invoke(op, ctx, input);
    } finally {
      applyEffects(reply, ctx.effects);
    }
  };
}

function statusFor(error: Error, errors: readonly Error[]): number {
  if (error instanceof AppError) {
    const own = (error as { statusCode?: unknown }).statusCode;
    return typeof own === 'number' ? own : HTTP_ERROR_MAP[error.kind].status;
  }
  return errors.every(isRequestError) ? requestErrorStatus(error) : 500;
}

function sendFailure(request: FastifyRequest, reply: FastifyReply, error: Error): FastifyReply {
  const scope = { requestId: String(request.id), log: request.log as unknown as Logger };
  const errors = unwrapErrors(error);
  return reply.status(statusFor(error, errors)).type(JSON_TYPE).send({ errors: boundedErrors(errors.map((e) => formatGraphqlError(e, scope))) });
}

export async function createGraphqlRuntime(deps: Deps, registry: Registry): Promise<GraphqlRuntime> {
  const schema = buildGraphqlSchema(registry.all, runnerFor(deps));
  const engine = Fastify({ loggerInstance: deps.logger as unknown as FastifyBaseLogger });
  await engine.register(mercurius, {
    schema,
    routes: false,
    graphiql: false,
    validationRules: graphqlValidationRules({ introspection: deps.config.enableGraphqlIntrospection }),
    graphql: { parseOptions: { maxTokens: MAX_TOKENS } },
    errorFormatter: (execution, context) => {
      const reply = (context as { reply: FastifyReply }).reply;
      const scope = { requestId: String(reply.request.id), log: reply.request.log as unknown as Logger, onAppError: (error: Error) => noteLimited(reply.request, error) };
      const errors = boundedErrors(execution.errors.map((error) => formatGraphqlError(error, scope)));
      // Errors about the request itself (unbound variables) answer 400; operation errors answer 200.
      const refused = !execution.data && execution.errors.every(isRequestError);
      const response = refused ? { errors } : { data: execution.data ?? null, errors };
      return { statusCode: refused ? 400 : 200, response: response as never };
    },
  });
  // Runs mercurius's onReady check of the schema (graphql-js validateSchema).
  await engine.ready();
  return {
    execute: (reply, { query, variables, operationName }) => engine.graphql(query, { reply }, variables, operationName),
    sendFailure,
    close: () => engine.close(),
  };
}
