/**
 * GraphQL transport: the registry's schema served by mercurius at POST /graphql. Each root field builds its
 * own OpContext, runs the operation through invoke() and turns its effects into real Set-Cookie headers,
 * also when the operation fails (a logout that clears a cookie). Errors map per errors.ts.
 *
 * GraphiQL (--enable-playground) is not served: mercurius's GraphiQL page loads React and GraphiQL from
 * unpkg.com, and this server loads nothing from the internet.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import mercurius from 'mercurius';
import type { Logger } from 'pino';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';
import type { AnyOperation } from '../../ops/define.ts';
import { invoke } from '../../ops/invoke.ts';
import { applyEffects, buildHttpContext } from '../http/request-context.ts';
import { noteLimited } from '../http/errors.ts';
import { buildGraphqlSchema } from './schema.ts';
import { graphqlValidationRules } from './validation-rules.ts';
import { formatGraphqlError, isRequestError } from './errors.ts';
import { graphqlRoutes } from './route.ts';
import { boundedErrors } from './bounded-errors.ts';

export { buildGraphqlSchema } from './schema.ts';
export { selectionFor, graphqlRequestFor } from './selection.ts';

/** Parser cap against oversized documents; far above any real query of this schema. */
const MAX_TOKENS = 10_000;

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

export async function registerGraphql(http: FastifyInstance, deps: Deps, registry: Registry): Promise<void> {
  const schema = buildGraphqlSchema(registry.all, runnerFor(deps));
  await http.register(mercurius, {
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
  await http.register(graphqlRoutes);
}
