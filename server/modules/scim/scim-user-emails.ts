/**
 * The lower-cased `emails` values of each provisioned user (ScimUserEmail), kept beside the user's link so that
 * the email filters Entra ID and Okta may send (`emails[value eq "..."]`, `emails.value eq "..."`; emails are
 * not caseExact, RFC 7643 section 2.2) are answered from an index (scim-list.ts). Rewritten whenever the
 * link's stored resource is written, removed with the link.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { ScimUserEmail, type ScimUserRow } from './scim.entity.ts';

/** The column's length: a longer value is not indexed, and a filter on one is evaluated in memory. */
export const MAX_INDEXED_EMAIL = 255;

/** The distinct lower-cased values of a stored resource's emails that fit the index. */
export function emailKeysOf(resource: Record<string, unknown>): string[] {
  const emails = Array.isArray(resource.emails) ? (resource.emails as Array<Record<string, unknown>>) : [];
  const keys = emails.map((e) => (typeof e?.value === 'string' ? e.value.toLowerCase() : '')).filter((v) => v && v.length <= MAX_INDEXED_EMAIL);
  return [...new Set(keys)];
}

/** Replaces the link's indexed emails with those of its current resource (persisted at the next flush). */
export async function writeEmailIndex(em: EntityManager, link: ScimUserRow, replacing: boolean): Promise<void> {
  if (replacing) await em.nativeDelete(ScimUserEmail, { linkId: link.id });
  for (const valueKey of emailKeysOf(link.resource)) {
    em.persist(em.create(ScimUserEmail, { id: randomUUID(), orgId: link.orgId, linkId: link.id, userId: link.userId, valueKey }));
  }
}

export async function dropEmailIndex(em: EntityManager, linkId: string): Promise<void> {
  await em.nativeDelete(ScimUserEmail, { linkId });
}
