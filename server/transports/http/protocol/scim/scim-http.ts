/**
 * The HTTP shape of /scim/v2/ (RFC 7644 sections 3.1 and 3.12): answers in application/scim+json, errors as
 * SCIM error bodies with their status, bearer authentication of the organization's identity provider
 * (docs/api-overview.md#authentication; RFC 6750 section 3 for the challenge), the per-token limit, and one transaction per
 * request with the organization the token named.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { AppError } from '../../../../kernel/errors.ts';
import { authenticateScimToken, ConcurrentScimChange, scimBaseUrl, ScimError, scimErrorBody, type ScimScope } from '../../../../modules/scim/index.ts';
import type { OrganizationRow } from '../../../../modules/organizations/index.ts';
import { bearerFrom, buildHttpContext } from '../../request-context.ts';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    scimOrg?: OrganizationRow;
  }
}

const KIND_STATUS: Partial<Record<AppError['kind'], [number, ScimError['scimType']]>> = {
  invalid_argument: [400, 'invalidValue'],
  failed_precondition: [400, 'invalidValue'],
  already_exists: [409, 'uniqueness'],
  not_found: [404, undefined],
  unauthenticated: [401, undefined],
  permission_denied: [403, undefined],
  too_many_requests: [429, undefined],
};

export function sendScimError(reply: FastifyReply, error: ScimError): FastifyReply {
  if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="scim"');
  return reply.status(error.status).type(SCIM_CONTENT_TYPE).header('cache-control', 'no-store').send(scimErrorBody(error));
}

/** Every failure in the SCIM scope answers in the SCIM error shape; anything unexpected as a bare 500. */
export function scimErrorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ScimError) return sendScimError(reply, error);
  if (error instanceof AppError) {
    const mapped = KIND_STATUS[error.kind];
    if (mapped) {
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendScimError(reply, new ScimError(mapped[0], error.message, mapped[1]));
    }
  }
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own refusals: malformed JSON, a body over the limit, an unsupported media type.
    return sendScimError(reply, new ScimError(status, error.message, status === 400 ? 'invalidSyntax' : undefined));
  }
  request.log.error({ err: error }, 'SCIM request failed');
  return sendScimError(reply, new ScimError(500, `internal server error (request id ${String(request.id)})`));
}

/** preHandler: the bearer token names the organization (RFC 7644 section 2), then its limit is spent. */
export function scimAuthentication(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = bearerFrom(typeof header === 'string' ? header : undefined);
    if (!token) return sendScimError(reply, new ScimError(401, 'a bearer token is required'));
    const outcome = await authenticateScimToken(deps.storage.fork(), deps.clock.now(), token);
    if (!outcome.ok) {
      if (outcome.reason === 'organization_disabled') return sendScimError(reply, new ScimError(403, 'the organization is disabled'));
      return sendScimError(reply, new ScimError(401, 'the bearer token is not a valid SCIM token'));
    }
    await deps.limits.consume('scim_request', outcome.endpoint.id);
    request.scimOrg = outcome.org;
    return undefined;
  };
}

const ATTEMPTS = 3;

/**
 * Runs `work` in one transaction confined to the request's organization; a write that lost a race for the
 * resource's version (scim-scope.ts claimNextVersion) is run again on fresh reads, a few times at most.
 */
export async function inScope<T>(deps: Deps, request: FastifyRequest, work: (scope: ScimScope) => Promise<T>): Promise<T> {
  const org = request.scimOrg;
  if (!org) throw new ScimError(401, 'a bearer token is required');
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { req } = buildHttpContext(deps, request, 'rest');
      return await deps.storage.fork().transactional((em) => work({ em, deps, req, org, baseUrl: scimBaseUrl(deps.config) }));
    } catch (err) {
      if (!(err instanceof ConcurrentScimChange)) throw err;
      if (attempt >= ATTEMPTS) throw new ScimError(409, 'the resource is being changed by concurrent requests: try again');
    }
  }
}

export function sendResource(reply: FastifyReply, status: number, resource: Record<string, unknown>, version?: string, location?: string): FastifyReply {
  if (version) reply.header('etag', version);
  if (location) reply.header('location', location);
  return reply.status(status).type(SCIM_CONTENT_TYPE).send(resource);
}

/** RFC 7644 section 3.14 with RFC 9110 section 13.1.1: `*` or any listed tag (weak comparison) must match. */
export function checkIfMatch(request: FastifyRequest, current: string): void {
  const header = request.headers['if-match'];
  if (typeof header !== 'string' || header.trim() === '') return;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.some((t) => weak(t) === weak(current))) return;
  throw ScimError.preconditionFailed();
}

export function notModified(request: FastifyRequest, current: string): boolean {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || weak(t) === weak(current));
}

/** The query string's parameters, first value of each. */
export function queryOf(request: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}
