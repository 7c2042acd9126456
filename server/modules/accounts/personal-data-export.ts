/**
 * The holder's copy of an account's personal data (docs/privacy.md#what-is-exported; GDPR Art. 15 right of
 * access and Art. 20 portability: "structured, commonly used and machine-readable", so JSON). Everything the
 * server keeps about the account, as its holder may see it: no secret and nothing a secret could be rebuilt
 * or replayed from (no password hash, TOTP seed, recovery code, session or token digest, passkey public key),
 * and nothing about another person.
 *
 * The sections of the modules above accounts come from onPersonalDataExport (personal-data-hooks.ts). The
 * lists that grow with use are bounded: the newest MAX_SESSIONS sessions and MAX_AUDIT_ENTRIES audit entries,
 * with `truncated` saying when older ones were left out.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { toPublicUser, type UserRow } from '../users/index.ts';
import { Session, sessionReference } from '../sessions/index.ts';
import { MfaFactor, RecoveryCode } from '../mfa/index.ts';
import { organizationsOfUser } from '../organizations/index.ts';
import { auditEntriesAbout } from '../audit/index.ts';
import { onPersonalDataExport, type PersonalDataSections } from './personal-data-hooks.ts';

export const PERSONAL_DATA_FORMAT = 'portcullis.personal-data/v1';
export const MAX_SESSIONS = 1000;
export const MAX_AUDIT_ENTRIES = 5000;

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

async function sessionsOf(em: EntityManager, userId: string) {
  const rows = await em.find(Session, { userId }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: MAX_SESSIONS + 1 });
  return {
    items: rows.slice(0, MAX_SESSIONS).map((row) => ({
      // The reference the session lists show, never the row key (a digest of the session token).
      id: sessionReference(row.id),
      login_method: row.loginMethod,
      scope: row.scope,
      created_at: iso(row.createdAt),
      auth_time: iso(row.authTime ?? row.createdAt),
      expires_at: iso(row.expiresAt),
      revoked_at: iso(row.revokedAt),
    })),
    truncated: rows.length > MAX_SESSIONS,
  };
}

async function secondFactorsOf(em: EntityManager, user: UserRow) {
  const factors = await em.find(MfaFactor, { userId: user.id }, { orderBy: { createdAt: 'asc' } });
  const unusedRecoveryCodes = await em.count(RecoveryCode, { userId: user.id, usedAt: null });
  return {
    enrolled_methods: user.enrolledMfaMethods ?? [],
    // Which factors exist and since when; the sealed TOTP seed and its last used step stay out.
    factors: factors.map((factor) => ({
      method: factor.method,
      verified: factor.verifiedAt !== null,
      verified_at: iso(factor.verifiedAt),
      created_at: iso(factor.createdAt),
    })),
    recovery_codes_remaining: unusedRecoveryCodes,
  };
}

async function organizationsOf(em: EntityManager, userId: string) {
  return (await organizationsOfUser(em, userId)).map(({ org, roles }) => ({
    id: org.id,
    name: org.name,
    display_name: org.displayName,
    roles,
  }));
}

/** The whole copy, as one JSON-ready object. */
export async function personalDataOf(em: EntityManager, clock: Clock, user: UserRow): Promise<Record<string, unknown>> {
  const sections: PersonalDataSections = {};
  await onPersonalDataExport.run(em, user.id, sections);
  const audit = await auditEntriesAbout(em, user.id, MAX_AUDIT_ENTRIES);
  return {
    format: PERSONAL_DATA_FORMAT,
    exported_at: clock.now().toISOString(),
    profile: toPublicUser(user),
    sessions: await sessionsOf(em, user.id),
    second_factors: await secondFactorsOf(em, user),
    organizations: await organizationsOf(em, user.id),
    ...sections,
    audit_entries: { items: audit.entries, truncated: audit.truncated, limit: MAX_AUDIT_ENTRIES },
  };
}
