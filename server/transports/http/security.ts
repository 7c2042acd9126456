/**
 * Cross-cutting HTTP policy, in one onRequest hook: security headers, CORS per --allowed-origins (cors.ts),
 * the CSRF rule of docs/api-overview.md#authentication (state-changing POST needs Origin or Referer; with allowed origins
 * `*` the Origin host must equal the request host), and the SDK's x-authorizer-client-id check
 * (docs/sdk-compatibility.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/flags.ts';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { constantTimeEqual } from '../../kernel/crypto.ts';
import { sendRefusal } from './errors.ts';
import { originAllowed, originListed, originOf } from '../../kernel/origins.ts';
import { corsAnswerer, registerPreflightRoute } from './cors.ts';
import { memoized } from './header-memo.ts';
import { endpointCsrfExemptions } from './endpoints.ts';
import { csrfExemptionMatcher } from './csrf-exemptions.ts';

export { originAllowed, originListed };
export { CORS_ALLOWED_HEADERS, corsOptionsFor } from './cors.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The CSRF rule for one configuration (docs/api-overview.md#authentication). The Origin (or Referer) of a state-changing
 * request must be the canonical origin (--url), or under `--allowed-origins *` have the request's own host,
 * or else be allowed by --allowed-origins.
 */
export function csrfRule(config: Config): (request: FastifyRequest) => string | undefined {
  const canonical = originOf(config.url)?.origin;
  // Exempt: the module endpoints whose CSRF rule says so, each with its reason (ops/endpoint.ts CsrfRule).
  const exempt = csrfExemptionMatcher(endpointCsrfExemptions());
  const anyOrigin = config.allowedOrigins.includes('*');
  const sourceOf = memoized((header: string) => {
    const source = originOf(header);
    return source ? { origin: source.origin, host: source.host.toLowerCase() } : null;
  });
  const allowed = memoized((origin: string) => originAllowed(config.allowedOrigins, origin));
  return (request) => {
    if (!STATE_CHANGING.has(request.method)) return undefined;
    const query = request.url.indexOf('?');
    const path = query < 0 ? request.url : request.url.slice(0, query);
    if (exempt(request.method, path)) return undefined;
    const header = headerText(request.headers.origin ?? request.headers.referer);
    const source = header ? sourceOf(header) : null;
    if (!source) return 'missing or malformed Origin or Referer header (CSRF protection)';
    if (canonical && source.origin === canonical) return undefined;
    if (anyOrigin) {
      const host = (request.headers.host ?? '').toLowerCase();
      return source.host === host ? undefined : 'Origin does not match the request host (CSRF protection)';
    }
    return allowed(source.origin) ? undefined : 'Origin is not allowed (CSRF protection)';
  };
}

/**
 * Sent on every answer of the main listener (OWASP ASVS 4.0 14.4); HSTS only when --url is https. Set when
 * a request arrives, so that every answer after that carries them, refusals and errors included; a route
 * that needs another Content-Security-Policy sets its own over the default.
 */
export function securityHeaderWriter(config: Config): (reply: FastifyReply) => void {
  const headers: Array<readonly [string, string]> = [
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['x-frame-options', 'DENY'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ];
  if (config.url?.startsWith('https://')) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return (reply) => {
    for (const [name, value] of headers) reply.header(name, value);
  };
}

/**
 * The policy hook. One callback-style hook on purpose: it runs on every request, and each further hook (or
 * an async one) costs a request more than the checks themselves. A hook that answers does not call `done`
 * (Fastify's hook contract). Order: headers, CORS (a preflight is answered before any check, as browsers
 * send it without credentials), CSRF, client id.
 */
export async function registerSecurity(http: FastifyInstance, deps: Deps): Promise<void> {
  const { config } = deps;
  const writeSecurityHeaders = securityHeaderWriter(config);
  const answerCors = corsAnswerer(config);
  const csrf = csrfRule(config);
  const expectedClientId = config.clientId ?? '';
  http.addHook('onRequest', (request, reply, done) => {
    writeSecurityHeaders(reply);
    if (answerCors(request, reply)) return;
    const problem = csrf(request);
    if (problem) {
      sendRefusal(request, reply, AppError.forbidden(problem));
      return;
    }
    const clientId = request.headers['x-authorizer-client-id'];
    if (typeof clientId === 'string' && clientId !== '' && !constantTimeEqual(clientId, expectedClientId)) {
      reply.status(400).send({ error: 'invalid_client_id' });
      return;
    }
    done();
  });
  registerPreflightRoute(http);
}
