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

export { originAllowed, originListed };
export { CORS_ALLOWED_HEADERS, corsOptionsFor } from './cors.ts';

/**
 * Exempt from the CSRF rule: the module endpoints whose CSRF rule says so (ops/endpoint.ts, each with its
 * reason), and the routes not yet moved into a module, below.
 */
// POST /oauth_callback/apple is Apple's form_post answer from appleid.apple.com; it only re-issues the same
// parameters as a GET of the callback (social/callback-route.ts), which checks state and browser binding.
const CSRF_EXEMPT_ROUTES = ['/oauth_callback/apple'];
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Posted cross-site by design (SAML 2.0 Bindings 3.5), and only these three routes, one organization segment
 * each: POST /sso/saml/<org>/acs, where an IdP's page posts the response to our SP and the proof is the
 * signed assertion answering a request this browser made (org-sso/saml-acs-route.ts); POST /saml/<org>/sso,
 * where an SP's page posts its AuthnRequest to our IdP, which only starts a sign-in whose answer goes to an
 * ACS registered for that SP (saml-idp/sso-route.ts); POST /saml/<org>/slo, where an SP's page posts its
 * LogoutRequest, acted on only when signed with that SP's registered key (saml-idp/slo-route.ts).
 */
const SAML_CROSS_SITE_POSTS = /^\/(?:sso\/saml\/[^/]+\/acs|saml\/[^/]+\/(?:sso|slo))$/;

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
  const exempt = new Set([...endpointCsrfExemptions(), ...CSRF_EXEMPT_ROUTES]);
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
    // SCIM (RFC 7644 section 2) is called by identity providers' back-ends with a bearer token, never a cookie.
    if (exempt.has(path) || path.startsWith('/scim/v2/')) return undefined;
    if (SAML_CROSS_SITE_POSTS.test(path)) return undefined;
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
