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

/** Distinct header values remembered per memo; past that the memo starts over (memory stays bounded). */
const MEMO_LIMIT = 512;

/**
 * A pure function of one header value, remembered for the values seen most recently: browsers send the
 * same few Origin values on every request, and parsing one as a URL and matching it against
 * --allowed-origins costs more than the rest of the policy. Any value (an attacker's too) only ever maps
 * to what `compute` says of it; a flood of distinct values clears the memo, it never grows past the limit.
 */
function memoized<V>(compute: (value: string) => V): (value: string) => V {
  const memo = new Map<string, V>();
  return (value) => {
    let answer = memo.get(value);
    if (answer === undefined && !memo.has(value)) {
      answer = compute(value);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(value, answer);
    }
    return answer as V;
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The CSRF rule for one configuration (specification part 5). The Origin (or Referer) of a state-changing
 * request must be the canonical origin (--url), or under `--allowed-origins *` have the request's own host,
 * or else be allowed by --allowed-origins.
 */
export function csrfRule(config: Config): (request: FastifyRequest) => string | undefined {
  const canonical = originOf(config.url)?.origin;
  const anyOrigin = config.allowedOrigins.includes('*');
  const sourceOf = memoized((header: string) => {
    const source = originOf(header);
    return source ? { origin: source.origin, host: source.host.toLowerCase() } : null;
  });
  const allowed = memoized((origin: string) => originAllowed(config.allowedOrigins, origin));
  return (request) => {
    if (!STATE_CHANGING.has(request.method)) return undefined;
    const query = request.url.indexOf('?');
    if (CSRF_EXEMPT.has(query < 0 ? request.url : request.url.slice(0, query))) return undefined;
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

/** Sent on every answer of the main listener (OWASP ASVS 4.0 14.4); HSTS only when --url is https. */
function securityHeaders(config: Config): ReadonlyArray<readonly [string, string]> {
  const headers: Array<readonly [string, string]> = [
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['x-frame-options', 'DENY'],
    ['cross-origin-opener-policy', 'same-origin'],
  ];
  if (config.url?.startsWith('https://')) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The policy hooks. Callback-style on purpose: each runs on every request, and an async hook costs a
 * promise per request for nothing. A hook that answers does not call `done` (Fastify's hook contract).
 */
export async function registerSecurity(http: FastifyInstance, deps: Deps): Promise<void> {
  const { config } = deps;
  const corsFor = memoized((origin: string) => corsOptionsFor(config.allowedOrigins, origin));
  const noOrigin = corsOptionsFor(config.allowedOrigins, undefined);
  await http.register(cors, {
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      callback(null, origin === undefined ? noOrigin : corsFor(origin));
    },
  });

  const csrf = csrfRule(config);
  const expectedClientId = config.clientId ?? '';
  http.addHook('onRequest', (request, reply, done) => {
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

  const headers = securityHeaders(config);
  http.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', DEFAULT_CSP);
    done(null, payload);
  });
}
