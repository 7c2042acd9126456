/**
 * What every /scim/v2/ endpoint does around its resource work (RFC 7644 sections 2, 3.1 and 3.14): the bearer
 * authentication of the organization's identity provider before anything else (docs/api-overview.md#authentication),
 * its per-token limit, one transaction per request confined to that organization, the entity-tag checks, and
 * answers in application/scim+json. Refusals are ScimErrors, written by the transport in the SCIM error shape.
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { EndpointAnswer, EndpointRequest } from '../../ops/endpoint.ts';
import type { OrganizationRow } from '../organizations/index.ts';
import { scimBaseUrl } from './scim-endpoints.schema.ts';
import { authenticateScimToken } from './scim-endpoints.service.ts';
import { ScimError } from './scim-errors.ts';
import { ConcurrentScimChange, type ScimScope } from './scim-scope.ts';

/** RFC 7644 section 3.1: the media type of every SCIM answer, errors included. */
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** The CSRF rule of every SCIM endpoint (RFC 7644 section 2): no cookie is ever involved. */
export const SCIM_CSRF = { exempt: 'identity providers call SCIM from their back-ends with a bearer token, never a cookie' } as const;

const BODY_MEDIA_TYPE = 'application/scim+json';

/**
 * The organization the bearer token names (RFC 7644 section 2; RFC 6750 section 2.1), its limit then spent.
 * Every handler calls it first, so no work is done for a caller without a valid token.
 */
export async function authenticateScimRequest(ctx: HandlerContext): Promise<OrganizationRow> {
  const token = ctx.credentials.bearer;
  if (!token) throw new ScimError(401, 'a bearer token is required');
  const outcome = await authenticateScimToken(ctx.em, ctx.deps.clock.now(), token);
  if (!outcome.ok) {
    if (outcome.reason === 'organization_disabled') throw new ScimError(403, 'the organization is disabled');
    throw new ScimError(401, 'the bearer token is not a valid SCIM token');
  }
  await ctx.deps.limits.consume('scim_request', outcome.endpoint.id);
  return outcome.org;
}

const ATTEMPTS = 3;

/**
 * Runs `work` in one transaction confined to the organization; a write that lost a race for the resource's
 * version (scim-scope.ts claimNextVersion) is run again on fresh reads, a few times at most.
 */
export async function inScope<T>(ctx: HandlerContext, org: OrganizationRow, work: (scope: ScimScope) => Promise<T>): Promise<T> {
  const baseUrl = scimBaseUrl(ctx.deps.config);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ctx.deps.storage.fork().transactional((em) => work({ em, deps: ctx.deps, req: ctx.req, org, baseUrl }));
    } catch (err) {
      if (!(err instanceof ConcurrentScimChange)) throw err;
      if (attempt >= ATTEMPTS) throw new ScimError(409, 'the resource is being changed by concurrent requests: try again');
    }
  }
}

/** The parsed body of a POST, PUT or PATCH; a request without content gets the SCIM error naming what is missing. */
export function requiredBody(request: EndpointRequest): unknown {
  if (request.document === undefined) {
    throw ScimError.badRequest('invalidSyntax', `${request.method} requires a body: a JSON object sent as ${BODY_MEDIA_TYPE}`);
  }
  return request.document;
}

/** A resource or a list in application/scim+json, with its entity tag and, on 201, its Location (RFC 7644 section 3.3). */
export function scimAnswer(status: number, resource: Record<string, unknown>, version?: string, location?: string): EndpointAnswer {
  const headers: Record<string, string> = {};
  if (version) headers.etag = version;
  if (location) headers.location = location;
  return { kind: 'json', status, contentType: SCIM_CONTENT_TYPE, body: resource, headers };
}

const weak = (tag: string) => tag.trim().replace(/^W\//, '');

/** RFC 7644 section 3.14 with RFC 9110 section 13.1.1: `*` or any listed tag (weak comparison) must match. */
export function checkIfMatch(request: EndpointRequest, current: string): void {
  const header = request.headers['if-match'];
  if (typeof header !== 'string' || header.trim() === '') return;
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.some((t) => weak(t) === weak(current))) return;
  throw ScimError.preconditionFailed();
}

/** RFC 9110 section 13.1.2: If-None-Match naming the current version (or `*`) answers 304. */
export function notModified(request: EndpointRequest, current: string): boolean {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((t) => t.trim() === '*' || weak(t) === weak(current));
}
