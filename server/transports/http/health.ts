/** Liveness and readiness (docs/api-overview.md#http-endpoints-outside-v1 and docs/errors.md); /health is the SDK's alias. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';

export function registerHealth(http: FastifyInstance, deps: Deps, isShuttingDown: () => boolean): void {
  const liveness = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const up = await deps.storage.ping();
    return reply.status(up ? 200 : 503).send({ status: up ? 'ok' : 'unhealthy' });
  };
  http.get('/healthz', liveness);
  http.get('/health', liveness);
  http.get('/readyz', async (_request, reply) => {
    const ready = !isShuttingDown() && (await deps.storage.ping());
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
  });
}
