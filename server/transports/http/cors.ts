/**
 * CORS per --allowed-origins, answered inside the one policy hook (security.ts) instead of a plugin hook of
 * its own. It gives the answers @fastify/cors gave with the options below (the delegator form this server
 * used): `Vary: Origin` on every answer, since it depends on Origin (Fetch standard, "CORS protocol and HTTP
 * caches"); Access-Control-Allow-Origin and -Credentials per corsOptionsFor; preflights (OPTIONS with
 * Origin and Access-Control-Request-Method) answered 204 with the allowed methods, headers and max age
 * before any other check, a preflight lacking Access-Control-Request-Method 400; and an OPTIONS route that
 * answers 404 when CORS does not apply, as the plugin's did.
 *
 * CORS never grants credentials to "any origin": under `--allowed-origins *` every origin may read
 * uncredentialed answers (Access-Control-Allow-Origin without Access-Control-Allow-Credentials), and only
 * origins listed explicitly (or by a `*.` wildcard entry) get credentialed CORS. Otherwise any web site could
 * read GET /v1/profile with the visitor's SameSite=None session cookies (Fetch standard, "CORS protocol and
 * credentials"; OWASP ASVS 4.0 14.5.3: the Origin header is checked against an allow list, never echoed).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { Config } from '../../config/flags.ts';
import { originListed } from '../../kernel/origins.ts';
import { memoized } from './header-memo.ts';

export const CORS_ALLOWED_HEADERS = [
  'Authorization', 'Content-Type', 'x-authorizer-url', 'x-authorizer-client-id', 'x-service-admin-secret', 'x-request-id',
  // RFC 9449 section 4.1: a browser client sends its DPoP proof in this header (docs/dpop.md).
  'DPoP',
];

const CORS_METHODS = ['GET', 'POST', 'OPTIONS'];
const CORS_MAX_AGE_SECONDS = 600;
const CORS_COMMON = { allowedHeaders: CORS_ALLOWED_HEADERS, methods: CORS_METHODS, maxAge: CORS_MAX_AGE_SECONDS };

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

const PREFLIGHT_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['access-control-allow-methods', CORS_METHODS.join(', ')],
  ['access-control-allow-headers', CORS_ALLOWED_HEADERS.join(', ')],
  ['access-control-max-age', String(CORS_MAX_AGE_SECONDS)],
];

/**
 * Adds the CORS headers of one request; answers a preflight itself and then returns true (the caller's
 * hook must stop there, without calling `done`).
 */
export function corsAnswerer(config: Config): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const optionsFor = memoized((origin: string) => corsOptionsFor(config.allowedOrigins, origin));
  return (request, reply) => {
    reply.header('vary', 'Origin');
    const requestOrigin = request.headers.origin;
    if (requestOrigin === undefined) return false;
    const options = optionsFor(requestOrigin);
    if (options.origin === false) return false;
    reply.header('access-control-allow-origin', options.origin === true ? requestOrigin : '*');
    if (options.credentials) reply.header('access-control-allow-credentials', 'true');
    if (request.raw.method !== 'OPTIONS') return false;
    if (!request.headers['access-control-request-method']) {
      reply.status(400).type('text/plain').send('Invalid Preflight Request');
      return true;
    }
    for (const [name, value] of PREFLIGHT_HEADERS) reply.header(name, value);
    // Safari waits for a body on a 204 without Content-Length.
    reply.code(204).header('content-length', '0').send();
    return true;
  };
}

/**
 * OPTIONS on any path: preflights CORS applies to were answered by the hook; any other OPTIONS request is
 * a 404 (with the route pattern `*` in metrics and the access line, as under @fastify/cors).
 */
export function registerPreflightRoute(http: FastifyInstance): void {
  http.options('*', (_request, reply) => reply.callNotFound());
}
