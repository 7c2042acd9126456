/**
 * Cross-cutting HTTP policy: security headers, CORS per --allowed-origins, the CSRF rule of specification
 * part 5 (state-changing POST needs Origin or Referer; with allowed origins `*` the Origin host must equal
 * the request host), and the SDK's x-authorizer-client-id check (reference.md "Compatibility").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import type { Config } from '../../config/flags.ts';
import type { Deps } from '../../kernel/deps.ts';
import { AppError, GRAPHQL_ERROR_CODES } from '../../kernel/errors.ts';
import { constantTimeEqual } from '../../kernel/crypto.ts';
import { sendAppError } from './errors.ts';

/** Endpoints called by back-ends with client credentials, exempt from the CSRF rule (reference.md). */
const CSRF_EXEMPT = new Set(['/oauth/token', '/oauth/revoke']);
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const CORS_ALLOWED_HEADERS = [
  'Authorization', 'Content-Type', 'x-authorizer-url', 'x-authorizer-client-id', 'x-service-admin-secret', 'x-request-id',
];

function originOf(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Matches an origin against --allowed-origins; entries may use a leading `*.` for subdomains. */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  if (allowed.includes('*')) return true;
  const parsed = originOf(origin);
  if (!parsed) return false;
  return allowed.some((entry) => {
    if (entry === origin || entry === parsed.origin) return true;
    const wildcard = /^(https?:\/\/)?\*\.(.+)$/.exec(entry);
    if (!wildcard) return false;
    const [, scheme, suffix] = wildcard;
    if (scheme && `${parsed.protocol}//` !== scheme) return false;
    return parsed.host.endsWith(`.${suffix}`);
  });
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
    origin: (origin, callback) => callback(null, origin === undefined ? false : originAllowed(config.allowedOrigins, origin)),
    credentials: true,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    methods: ['GET', 'POST', 'OPTIONS'],
    maxAge: 600,
  });

  http.addHook('onRequest', async (request, reply) => {
    const problem = csrfProblem(config, request);
    if (problem && request.url.split('?')[0] === '/graphql') {
      // Every reply of /graphql is GraphQL-shaped JSON (reference.md "Compatibility"), refusals included.
      return reply.status(403).send({ errors: [{ message: problem, extensions: { code: GRAPHQL_ERROR_CODES.permission_denied } }] });
    }
    if (problem) return sendAppError(reply, AppError.forbidden(problem));
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
