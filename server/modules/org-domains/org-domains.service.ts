/**
 * Storage and state changes of organization domains (docs/api-overview.md#states-and-transitions, "Org domain": no mapping ->
 * challenge issued -> verified; add_verified_org_domain skips DNS; delete_org_domain removes the claim and
 * the domain stops routing at once). One row per (organization, domain). A domain is verified for at most
 * one organization: checked here for a clear answer, and held by the unique `verifiedDomain` index when two
 * verifications race (organizations/org-domain.entity.ts).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Static } from '../../ops/schema.ts';
import { paginate, type Page, type PaginationRequest } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { OrgDomain, type OrgDomainRow } from '../organizations/index.ts';
import { newChallengeToken } from './challenge.ts';

/**
 * Claims one organization may hold, pending and verified together: an org-admin cannot fill the table with
 * challenges. Far above what a real organization owns; the super-admin's add counts too.
 */
export const MAX_DOMAINS_PER_ORG = 100;

const VERIFIED_ELSEWHERE = 'this domain is verified for another organization: it must be deleted there first';

export function findClaim(em: EntityManager, orgId: string, domain: string): Promise<OrgDomainRow | null> {
  return em.findOne(OrgDomain, { orgId, domain });
}

/** Issues the challenge, or answers the pending one again (its token unchanged, so a published record stays valid). */
/** A pending claim of `domain` by the organization, with a fresh challenge token (persisted, not flushed). */
function newClaim(em: EntityManager, now: Date, orgId: string, domain: string): OrgDomainRow {
  const row = em.create(OrgDomain, {
    id: randomUUID(),
    orgId,
    domain,
    state: 'pending',
    token: newChallengeToken(),
    verifiedDomain: null,
    verifiedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  em.persist(row);
  return row;
}

export async function requestClaim(em: EntityManager, now: Date, orgId: string, domain: string): Promise<OrgDomainRow> {
  const existing = await findClaim(em, orgId, domain);
  if (existing?.state === 'verified') throw new AppError('already_exists', 'this domain is already verified for this organization');
  if (existing) return existing;
  await assertRoomForAnother(em, orgId);
  const row = newClaim(em, now, orgId, domain);
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('already_exists', 'this domain was requested at the same moment; read the domains again');
    throw err;
  }
  return row;
}

async function assertRoomForAnother(em: EntityManager, orgId: string): Promise<void> {
  if ((await em.count(OrgDomain, { orgId })) >= MAX_DOMAINS_PER_ORG) {
    throw AppError.precondition(`an organization holds at most ${MAX_DOMAINS_PER_ORG} domains: delete one it no longer needs first`);
  }
}

async function assertNotVerifiedElsewhere(em: EntityManager, orgId: string, domain: string): Promise<void> {
  const holder = await em.findOne(OrgDomain, { verifiedDomain: domain });
  if (holder && holder.orgId !== orgId) throw new AppError('already_exists', VERIFIED_ELSEWHERE);
}

async function markVerified(em: EntityManager, now: Date, row: OrgDomainRow): Promise<OrgDomainRow> {
  await assertNotVerifiedElsewhere(em, row.orgId, row.domain);
  row.state = 'verified';
  row.verifiedDomain = row.domain;
  row.verifiedAt = now;
  row.updatedAt = now;
  try {
    await em.flush();
  } catch (err) {
    // Another organization's verification committed between the check and this write.
    if (isUniqueViolation(err)) throw new AppError('already_exists', VERIFIED_ELSEWHERE);
    throw err;
  }
  return row;
}

/**
 * Marks the claim verified after DNS showed `token` (in its own transaction, after the lookup: no database
 * transaction spans the network call). The token is compared again with the row as it is now, so a claim
 * deleted and requested anew meanwhile is not verified by the old record.
 */
export async function completeVerification(em: EntityManager, now: Date, claimId: string, token: string): Promise<OrgDomainRow> {
  const row = await em.findOne(OrgDomain, { id: claimId });
  if (!row) throw AppError.notFound('this domain was deleted meanwhile: request it again');
  if (row.state === 'verified') return row;
  if (row.token !== token) throw AppError.precondition('the challenge for this domain changed meanwhile: publish the new record and verify again');
  return markVerified(em, now, row);
}

/** The super-admin's claim (docs/api-overview.md#states-and-transitions: verified, DNS skipped): a pending claim is promoted, a missing one created. */
export async function addVerifiedClaim(em: EntityManager, now: Date, orgId: string, domain: string): Promise<OrgDomainRow> {
  let row = await findClaim(em, orgId, domain);
  if (row?.state === 'verified') return row;
  if (!row) {
    await assertNotVerifiedElsewhere(em, orgId, domain);
    await assertRoomForAnother(em, orgId);
    row = newClaim(em, now, orgId, domain);
  }
  return markVerified(em, now, row);
}

/** Removes the claim, pending or verified; from the next read on the domain routes nowhere. */
export async function deleteClaim(em: EntityManager, orgId: string, domain: string): Promise<void> {
  const removed = await em.nativeDelete(OrgDomain, { orgId, domain });
  if (removed === 0) throw AppError.notFound('this organization has no such domain');
}

export function listClaims(em: EntityManager, orgId: string, pagination: Static<typeof PaginationRequest> | undefined): Promise<Page<OrgDomainRow>> {
  return paginate(em, OrgDomain, { orgId }, pagination, { createdAt: 'asc', id: 'asc' });
}
