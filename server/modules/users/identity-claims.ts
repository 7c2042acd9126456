/**
 * Service-side uniqueness of email and phone number (docs/api-overview.md#versioning;
 * docs/architecture.md#storage: serialise on a normalised key, never a read-then-write race). Taking an identity inserts
 * its IdentityClaim row; the primary key makes the database refuse a second holder, even when 50
 * transactions race (PostgreSQL and MariaDB make the later inserts wait for the first transaction and
 * then fail with a duplicate key; SQLite runs one writer at a time). The reads before the insert only
 * turn the common, already-committed clash into a clean answer without an aborted statement, and
 * recover a claim left behind by a user row that no longer exists.
 */
import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../../kernel/errors.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { IdentityClaim } from './identity-claim.entity.ts';
import { User } from './user.entity.ts';

export type ClaimKind = 'email' | 'phone';

/** docs/api-overview.md#versioning gives one message for both identities. */
export const DUPLICATE_USER_MESSAGE = 'user with given email already exists';

const KEY_MAX_LENGTH = 255;
const USER_FIELD: Record<ClaimKind, 'email' | 'phoneNumber'> = { email: 'email', phone: 'phoneNumber' };

export function duplicateUser(): AppError {
  return new AppError('already_exists', DUPLICATE_USER_MESSAGE);
}

/**
 * The claim key of a normalised identity: `email:<address>` or `phone:<number>`. An address too long for
 * the 255-character key (types.ts rule 6) is keyed by its SHA-256 under a prefix no plain key can have.
 */
export function claimId(kind: ClaimKind, normalised: string): string {
  const plain = `${kind}:${normalised}`;
  return plain.length <= KEY_MAX_LENGTH ? plain : `${kind}#sha256:${sha256Hex(normalised)}`;
}

/**
 * Makes `userId` the holder of the identity, or throws already_exists. Must run inside the transaction
 * that writes the user, so the claim and the user commit or roll back together.
 */
export async function takeClaim(em: EntityManager, kind: ClaimKind, normalised: string, userId: string, now: Date): Promise<void> {
  const id = claimId(kind, normalised);
  const existing = await em.findOne(IdentityClaim, { id }, { disableIdentityMap: true });
  if (existing) {
    if (existing.userId === userId) return;
    if ((await em.count(User, { id: existing.userId })) > 0) throw duplicateUser();
    // The holder is gone (deleted outside purgeUser): the claim is stale and may be taken over.
    await em.nativeDelete(IdentityClaim, { id, userId: existing.userId });
  }
  // A user row written without a claim (seeded directly, or older data) still holds its identity.
  if ((await em.count(User, { [USER_FIELD[kind]]: normalised, id: { $ne: userId } })) > 0) throw duplicateUser();
  try {
    await em.insert(IdentityClaim, { id, userId, createdAt: now });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateUser();
    throw err;
  }
}

/** Gives up one identity of `userId` (a no-op when another user holds it). */
export async function releaseClaim(em: EntityManager, kind: ClaimKind, normalised: string, userId: string): Promise<void> {
  await em.nativeDelete(IdentityClaim, { id: claimId(kind, normalised), userId });
}

/** Gives up every identity of `userId`. */
export async function releaseAllClaims(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(IdentityClaim, { userId });
}
