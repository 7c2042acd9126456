/**
 * Cross-cutting HTTP policy: security headers, CORS per --allowed-origins, the CSRF rule of specification
 * part 5 (state-changing POST needs Origin or Referer; with allowed origins `*` the Origin host must equal
 * the request host), and the SDK's x-authorizer-client-id check (reference.md "Compatibility").
 *
 * CORS never grants credentials to "any origin": under `--allowed-origins *` every origin may read
 * uncredentialed answers (Access-Control-Allow-Origin without Access-Control-Allow-Credentials), and only
 * origins listed explicitly (or by a `*.` wildcard entry) get credentialed CORS. Otherwise any web site could
 * read GET /v1/profile with the visitor's SameSite=None session cookies (Fetch standard, "CORS protocol and
 * credentials"; OWASP ASVS 4.0 14.5.3: the Origin header is checked against an allow list, never echoed).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { Config } from '../../config/flags.ts';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { constantTimeEqual } from '../../kernel/crypto.ts';
import { sendRefusal } from './errors.ts';
import { originAllowed, originListed, originOf } from '../../kernel/origins.ts';

export { originAllowed, originListed };

/** Endpoints called by back-ends with client credentials, exempt from the CSRF rule (reference.md). */
const CSRF_EXEMPT = new Set(['/oauth/token', '/oauth/revoke']);
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const CORS_ALLOWED_HEADERS = [
  'Authorization', 'Content-Type', 'x-authorizer-url', 'x-authorizer-client-id', 'x-service-admin-secret', 'x-request-id',
];

const CORS_COMMON = { allowedHeaders: CORS_ALLOWED_HEADERS, methods: ['GET', 'POST', 'OPTIONS'], maxAge: 600 };

/**
 * CORS answer for one request's Origin: a listed origin is echoed with credentials; under `*` any other
 * origin gets `Access-Control-Allow-Origin: *`, which browsers never honour for credentialed requests, so
 * cookies may ride along but the answer stays unreadable to the calling page; otherwise no CORS at all.
 */
export function corsOptionsFor(allowed: readonly string[], origin: string | undefined): FastifyCorsOptions {
  if (origin === undefined) return { ...CORS_COMMON, origin: false };
  if (originListed(allowed, origin)) return { ...CORS_COMMON, origin: true, credentials: true };
  if (allowed.includes('*')) return { ...CORS_COMMON, origin: '*', credentials: false };
  return { ...CORS_COMMON, origin: false };
}

export function csrfProblem(config: Config, request: FastifyRequest): string | undefined {
  if (!STATE_CHANGING.has(request.method)) return undefined;
  const path = request.url.split('?')[0] ?? '';
  if (CSRF_EXEMPT.has(path)) return undefined;
  const header = request.headers.origin ?? request.headers.referer;
  const source = originOf(Array.isArray(header) ? header[0] : header);
  if (!source) return 'missing or malformed Origin or Referer header (CSRF protection)';
  const canonical = originOf(config.url);
  if (canonical && source.origin === canonical.origin) return undefined;
  if (config.allowedOrigins.includes('*')) {
    const host = (request.headers.host ?? '').toLowerCase();
    return source.host.toLowerCase() === host ? undefined : 'Origin does not match the request host (CSRF protection)';
  }
  return originAllowed(config.allowedOrigins, source.origin) ? undefined : 'Origin is not allowed (CSRF protection)';
}

export async function registerSecurity(http: FastifyInstance, deps: Deps): Promise<void> {
  const { config } = deps;
  await http.register(cors, {
    delegator: (request, callback) => callback(null, corsOptionsFor(config.allowedOrigins, request.headers.origin)),
  });

  http.addHook('onRequest', async (request, reply) => {
    const problem = csrfProblem(config, request);
    if (problem) return sendRefusal(request, reply, AppError.forbidden(problem));
    const clientId = request.headers['x-authorizer-client-id'];
    if (typeof clientId === 'string' && clientId !== '' && !constantTimeEqual(clientId, config.clientId ?? '')) {
      return reply.status(400).send({ error: 'invalid_client_id' });
    }
    return undefined;
  });

  const hsts = config.url?.startsWith('https://');
  http.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    }
    if (hsts) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
