/**
 * Verification tokens for the emailed links (docs/operations.md): random (32 bytes), single use, expiring,
 * stored only as SHA-256 hashes. The raw token exists once, in createVerification's answer, on its way
 * into the email link.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { isEmailEvent, type EmailEvent } from '../email/index.ts';
import { VerificationRequest, type VerificationRequestRow } from './verification-request.entity.ts';

/** The lifetime flows use unless they have a reason for another (30 minutes). */
export const DEFAULT_VERIFICATION_TTL_SECONDS = 30 * 60;
const TOKEN_BYTES = 32;
/** One message for unknown, expired and used tokens: the answer must not tell them apart. */
export const INVALID_TOKEN_MESSAGE = 'invalid or expired token';

export interface NewVerification {
  identifier: EmailEvent | string;
  email: string;
  userId?: string | null;
  redirectUri?: string | null;
  ttlSeconds: number;
  /** Carried into the tokens issued when the link is used; random when not given. */
  nonce?: string;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Stores a new verification request and answers the raw token (for the link; it is not kept). An earlier
 * request for the same email and identifier is removed, so only the newest link works. Flushes `em`.
 */
export async function createVerification(em: EntityManager, clock: Clock, input: NewVerification): Promise<string> {
  if (!isEmailEvent(input.identifier)) throw AppError.invalid(`invalid identifier: ${String(input.identifier).slice(0, 64)}`);
  if (!Number.isFinite(input.ttlSeconds) || input.ttlSeconds <= 0) throw new Error('ttlSeconds must be positive');
  const email = normaliseEmail(input.email);
  if (!email) throw AppError.invalid('email is required');
  const now = clock.now();
  const token = randomToken(TOKEN_BYTES);
  await em.nativeDelete(VerificationRequest, { email, identifier: input.identifier });
  em.create(VerificationRequest, {
    id: randomUUID(),
    tokenHash: sha256Hex(token),
    identifier: input.identifier,
    email,
    userId: input.userId ?? null,
    expiresAt: new Date(now.getTime() + input.ttlSeconds * 1000),
    nonce: input.nonce ?? randomUUID(),
    redirectUri: input.redirectUri || null,
    createdAt: now,
    updatedAt: now,
    usedAt: null,
  });
  await em.flush();
  return token;
}

/**
 * Uses a token: it must match a request of one of `identifiers` that is unexpired and unused. Marking it
 * used is a single conditional update, so of two concurrent uses exactly one succeeds on every database.
 * Inside the caller's transaction, a rollback gives the token back.
 */
export async function consumeVerification(
  em: EntityManager,
  clock: Clock,
  token: string,
  identifiers: readonly (EmailEvent | string)[],
): Promise<VerificationRequestRow> {
  if (typeof token !== 'string' || token.length === 0 || token.length > 512 || identifiers.length === 0) {
    throw AppError.invalid(INVALID_TOKEN_MESSAGE);
  }
  const now = clock.now();
  const tokenHash = sha256Hex(token);
  const claimed = await em.nativeUpdate(
    VerificationRequest,
    { tokenHash, identifier: { $in: [...identifiers] }, usedAt: null, expiresAt: { $gt: now } },
    { usedAt: now, updatedAt: now },
  );
  if (claimed !== 1) throw AppError.invalid(INVALID_TOKEN_MESSAGE);
  const row = await em.findOne(VerificationRequest, { tokenHash }, { refresh: true });
  if (!row) throw AppError.invalid(INVALID_TOKEN_MESSAGE);
  return row;
}

export interface VerificationOwner {
  email?: string | null;
  userId?: string | null;
}

function ownerFilter(owner: VerificationOwner): FilterQuery<VerificationRequestRow>[] {
  const filters: FilterQuery<VerificationRequestRow>[] = [];
  if (owner.email) filters.push({ email: normaliseEmail(owner.email) });
  if (owner.userId) filters.push({ userId: owner.userId });
  return filters;
}

/** Removes every request of an email address or a user (delete_user, email change). Answers the count. */
export async function deleteVerificationsFor(em: EntityManager, owner: VerificationOwner): Promise<number> {
  const filters = ownerFilter(owner);
  // Without an owner the filter would be empty and match every row.
  if (filters.length === 0) throw new Error('deleteVerificationsFor needs an email or a userId');
  return em.nativeDelete(VerificationRequest, { $or: filters });
}
