/**
 * Storage of SCIM endpoints (docs/operations.md, "SCIM"): one per organization (the unique orgId index is
 * the last word under concurrency), a token that exists only in the create or rotate answer, and the lookup
 * the /scim/v2/ routes authenticate with (docs/api-overview.md#authentication).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { Organization, type OrganizationRow } from '../organizations/index.ts';
import { ScimEndpoint, type ScimEndpointRow } from './scim.entity.ts';
import { newScimToken, plausibleScimToken, scimTokenDigest, scimTokenMatches } from './scim-token.ts';

const ALREADY_EXISTS = 'this organization already has a SCIM endpoint: rotate its token or delete it first';
/** lastUsedAt is a hint for the admin, not an audit trail: at most one write a minute per endpoint. */
const LAST_USED_RESOLUTION_MS = 60_000;

export async function createScimEndpoint(em: EntityManager, now: Date, org: OrganizationRow): Promise<{ endpoint: ScimEndpointRow; token: string }> {
  if (await em.findOne(ScimEndpoint, { orgId: org.id }, { fields: ['id'] })) throw new AppError('already_exists', ALREADY_EXISTS);
  const token = newScimToken();
  const endpoint = em.create(ScimEndpoint, {
    id: randomUUID(),
    orgId: org.id,
    tokenDigest: scimTokenDigest(token),
    tokenRotatedAt: now,
    lastUsedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  em.persist(endpoint);
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('already_exists', ALREADY_EXISTS);
    throw err;
  }
  return { endpoint, token };
}

export function findScimEndpoint(em: EntityManager, orgId: string): Promise<ScimEndpointRow | null> {
  return em.findOne(ScimEndpoint, { orgId });
}

async function requireScimEndpoint(em: EntityManager, orgId: string): Promise<ScimEndpointRow> {
  const endpoint = await findScimEndpoint(em, orgId);
  if (!endpoint) throw AppError.notFound('this organization has no SCIM endpoint');
  return endpoint;
}

/** A new token; the old digest is overwritten in the same write, so the old token is refused at once. */
export async function rotateScimToken(em: EntityManager, now: Date, orgId: string): Promise<{ endpoint: ScimEndpointRow; token: string }> {
  const endpoint = await requireScimEndpoint(em, orgId);
  const token = newScimToken();
  endpoint.tokenDigest = scimTokenDigest(token);
  endpoint.tokenRotatedAt = now;
  endpoint.updatedAt = now;
  await em.flush();
  return { endpoint, token };
}

/** The provisioned users and groups stay: deleting the endpoint only stops the provider's access. */
export async function deleteScimEndpoint(em: EntityManager, orgId: string): Promise<void> {
  const removed = await em.nativeDelete(ScimEndpoint, { orgId });
  if (removed === 0) throw AppError.notFound('this organization has no SCIM endpoint');
}

export type ScimAuthentication =
  | { ok: true; endpoint: ScimEndpointRow; org: OrganizationRow }
  | { ok: false; reason: 'invalid_token' | 'organization_disabled' };

/**
 * The endpoint and organization a presented bearer token speaks for. The digest is looked up by its index
 * and compared again in constant time; a disabled organization's token is refused (its records are kept,
 * its provider's access is suspended with it).
 */
export async function authenticateScimToken(em: EntityManager, now: Date, token: string): Promise<ScimAuthentication> {
  if (!plausibleScimToken(token)) return { ok: false, reason: 'invalid_token' };
  const endpoint = await em.findOne(ScimEndpoint, { tokenDigest: scimTokenDigest(token) });
  if (!endpoint || !scimTokenMatches(token, endpoint.tokenDigest)) return { ok: false, reason: 'invalid_token' };
  const org = await em.findOne(Organization, { id: endpoint.orgId });
  if (!org) return { ok: false, reason: 'invalid_token' };
  if (!org.enabled) return { ok: false, reason: 'organization_disabled' };
  if (!endpoint.lastUsedAt || now.getTime() - endpoint.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // A bulk update: no read-modify-write race with a concurrent rotation of the digest.
    await em.nativeUpdate(ScimEndpoint, { id: endpoint.id }, { lastUsedAt: now });
  }
  return { ok: true, endpoint, org };
}
