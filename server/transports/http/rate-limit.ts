/**
 * Per-IP rate limit on every route of the main listener (docs/limits.md: by the client IP
 * per --trusted-proxies; OWASP ASVS 4.0 11.1.4 anti-automation). Its hook
 * is the first onRequest hook, so a refused request costs one counter update: no CORS, CSRF, body parsing
 * or operation runs. The client IP is Fastify's request.ip, which honours X-Forwarded-For only from peers
 * in --trusted-proxies (server.ts sets trustProxy from that flag alone).
 *
 * The refusal is HTTP 429 with Retry-After (RFC 6585 section 4): REST `{code: 'resource_exhausted',
 * message}`, and on /graphql the GraphQL error shape (docs/sdk-compatibility.md#graphql-requests).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { sendRefusal } from './errors.ts';
import { corsOptionsFor } from './cors.ts';
import { securityHeaderWriter } from './security.ts';
import { clientKey } from '../../modules/limits/index.ts';

/**
 * The CORS plugin's hook runs after this one, so a refusal carries its own CORS answer: without it a
 * browser would report a network error instead of letting the page read the 429 and its Retry-After.
 */
function allowCors(deps: Deps, request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  const cors = corsOptionsFor(deps.config.allowedOrigins, origin);
  if (cors.origin === false || origin === undefined) return;
  reply.header('vary', 'Origin');
  reply.header('access-control-allow-origin', cors.origin === true ? origin : '*');
  if (cors.credentials) reply.header('access-control-allow-credentials', 'true');
  reply.header('access-control-expose-headers', 'Retry-After');
}

export function registerRateLimit(http: FastifyInstance, deps: Deps): void {
  if (deps.config.rateLimitRps <= 0) return;
  // The policy hook (security.ts) that sets the security headers comes after this one: a refusal sets them.
  const writeSecurityHeaders = securityHeaderWriter(deps.config);
  http.addHook('onRequest', async (request, reply) => {
    try {
      await deps.limits.consume('ip', clientKey(request.ip));
      return undefined;
    } catch (err) {
      if (!(err instanceof AppError)) {
        // The limiter's store failed beyond its insurance: serve rather than refuse everyone.
        request.log.error({ err }, 'per-IP rate limit unavailable');
        return undefined;
      }
      writeSecurityHeaders(reply);
      allowCors(deps, request, reply);
      return sendRefusal(request, reply, err);
    }
  });
}
