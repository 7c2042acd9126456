/**
 * REST under /v1 and /v1/admin, generated from the registry (docs/operations.md): flat JSON
 * bodies in, bare objects out, GET where the specification says GET, 405 `method_not_allowed` for any other
 * method on a known path, and a clear refusal for operations that REST does not carry.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';
import type { AnyOperation } from '../../ops/define.ts';
import { invoke, notOnThisProtocol } from '../../ops/invoke.ts';
import { AppError } from '../../kernel/errors.ts';
import { buildHttpContext } from './request-context.ts';
import { sendAppError } from './errors.ts';
import { sendRefused, sendResult, type RestHandler } from './rest-answers.ts';
import { LEAN_REST_HANDLERS } from './lean-routes.ts';

const ALL_METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The generic REST handler of an operation: the whole invoke pipeline (ops/invoke.ts). */
export function restHandler(deps: Deps, op: AnyOperation): RestHandler {
  return async (request, reply) => {
    const ctx = buildHttpContext(deps, request, 'rest');
    const raw = request.method === 'GET' ? request.query : request.body;
    try {
      return sendResult(reply, ctx, await invoke(op, ctx, raw));
    } catch (err) {
      return sendRefused(reply, ctx, err as AppError);
    }
  };
}

export function registerRestRoutes(http: FastifyInstance, deps: Deps, registry: Registry): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const op of registry.all) {
    if (!op.restRoute) continue;
    const { method, path } = op.restRoute;
    const generic = restHandler(deps, op);
    const lean = LEAN_REST_HANDLERS[op.name];
    http.route({ method, url: path, handler: lean ? lean(deps, op, generic) : generic });
    methodsByPath.set(path, (methodsByPath.get(path) ?? new Set()).add(method));
  }
  for (const op of registry.all) {
    if (op.restRoute) continue;
    const path = op.admin ? `/v1/admin/${op.name}` : `/v1/${op.name}`;
    if (methodsByPath.has(path)) continue;
    const refusal = notOnThisProtocol(op, 'REST');
    http.route({ method: ALL_METHODS, url: path, handler: async (_request, reply) => sendAppError(reply, refusal) });
  }
  for (const [path, methods] of methodsByPath) {
    const others = ALL_METHODS.filter((m) => !methods.has(m) && !(m === 'HEAD'));
    if (others.length === 0) continue;
    const allow = [...methods].join(', ');
    http.route({
      method: others,
      url: path,
      handler: async (request, reply) => {
        reply.header('allow', allow);
        return sendAppError(reply, new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allow}`));
      },
    });
  }
}
