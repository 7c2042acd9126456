/**
 * One-time codes for verify_otp and password reset by phone (docs/operations.md): six random digits,
 * the 20 bits of entropy OWASP ASVS 2.7.6 asks of an out-of-band code.
 *
 * At rest: the code is never stored. `codeDigest` = seal(SHA-256(rowId ":" code)) with deps.sealer
 * (AES-256-GCM under --encryption-key, else --jwt-secret; kernel/encryption.ts). A plain or salted hash
 * would not do: there are only a million codes, so anyone with a database dump could recompute them;
 * the sealing key lives outside the database. The row id inside the digest stops a digest from being
 * copied onto another row. Checking compares digests in constant time.
 *
 * Guessing: a code allows MAX_OTP_ATTEMPTS checks, counted by a compare-and-set update that commits on
 * its own. That is why consumeOtp refuses to run inside a transaction: a refused code throws, the
 * transaction would roll back, and the count with it (unlimited guesses). Operations that check codes
 * declare `transaction: false` and open their transaction after the code was accepted.
 *
 * Across codes: a new code starts at zero attempts, so the per-code count alone would let anyone who can
 * ask for codes (resend_otp, forgot_password) guess without end. Every check therefore also spends a point
 * of the 'otp_guess' limit of its purpose and target (modules/limits/policies.ts: ten an hour), which
 * outlives re-issued codes; once spent, checks are refused even for the right code (OWASP ASVS 2.2.1 and
 * 2.8.x: anti-automation for out-of-band codes).
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Clock, Deps } from '../../kernel/deps.ts';
import type { Sealer } from '../../kernel/encryption.ts';
import { AppError } from '../../kernel/errors.ts';
import { constantTimeEqual, sha256Hex } from '../../kernel/crypto.ts';
import { Otp, type OtpRow } from './otp.entity.ts';
import { normaliseEmail } from './verification.service.ts';

export const MAX_OTP_ATTEMPTS = 5;
export const DEFAULT_OTP_TTL_SECONDS = 5 * 60;
export const OTP_DIGITS = 6;
/** One message for a wrong, unknown, used or expired code. */
export const INVALID_OTP_MESSAGE = 'invalid or expired otp';
export const OTP_ATTEMPTS_EXHAUSTED_MESSAGE = 'too many failed attempts: request a new code';

/** Whose code it is; every field given must match when the code is checked. */
export interface OtpTarget {
  userId?: string | null;
  email?: string | null;
  phone?: string | null;
}

export interface NewOtp extends OtpTarget {
  /** What the code is for (verify_otp, forgot_password, ...); a code of one purpose never serves another. */
  purpose: string;
  ttlSeconds?: number;
}

export interface OtpCheck extends OtpTarget {
  purpose: string;
  code: string;
}

interface TargetFilter {
  userId?: string;
  email?: string;
  phoneNumber?: string;
}

function targetFilter(target: OtpTarget): TargetFilter {
  const filter: TargetFilter = {};
  if (target.userId) filter.userId = target.userId;
  if (target.email) filter.email = normaliseEmail(target.email);
  if (target.phone) filter.phoneNumber = target.phone.trim();
  if (Object.keys(filter).length === 0) throw new Error('an OTP needs a userId, an email or a phone number');
  return filter;
}

function checkPurpose(purpose: string): void {
  if (!purpose || purpose.length > 64) throw new Error('an OTP needs a purpose of at most 64 characters');
}

function digestOf(id: string, code: string): string {
  return sha256Hex(`${id}:${code}`);
}

function randomCode(): string {
  return String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0');
}

/**
 * Stores a new code for the target and purpose and answers it (to be sent; it is not kept). Earlier
 * codes of the same target and purpose are removed: only the newest code works. Flushes `em`.
 */
export async function createOtp(em: EntityManager, clock: Clock, sealer: Sealer, input: NewOtp): Promise<string> {
  checkPurpose(input.purpose);
  const target = targetFilter(input);
  const ttlSeconds = input.ttlSeconds ?? DEFAULT_OTP_TTL_SECONDS;
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) throw new Error('ttlSeconds must be positive');
  const now = clock.now();
  const id = randomUUID();
  const code = randomCode();
  await em.nativeDelete(Otp, { ...target, purpose: input.purpose });
  em.create(Otp, {
    id,
    purpose: input.purpose,
    userId: input.userId ?? null,
    email: input.email ? normaliseEmail(input.email) : null,
    phoneNumber: input.phone ? input.phone.trim() : null,
    codeDigest: sealer.seal(digestOf(id, code)),
    attempts: 0,
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    createdAt: now,
    updatedAt: now,
    usedAt: null,
  });
  await em.flush();
  return code;
}

function matches(sealer: Sealer, row: OtpRow, code: string): boolean {
  let stored: string;
  try {
    stored = sealer.open(row.codeDigest);
  } catch {
    // Sealed under another key (the key was rotated): the code cannot be checked, so it is refused.
    return false;
  }
  return constantTimeEqual(stored, digestOf(row.id, code));
}

/**
 * Checks a code and, when right, marks it used (single use) and answers its row. Wrong, unknown, used
 * and expired codes answer invalid_argument with one message; the fifth wrong check retires the code.
 * Must not run inside a transaction (see the header comment).
 */
export async function consumeOtp(em: EntityManager, deps: Pick<Deps, 'clock' | 'sealer' | 'limits'>, check: OtpCheck): Promise<OtpRow> {
  if (em.isInTransaction()) {
    throw new Error('consumeOtp must run outside a transaction, or a rollback would undo the attempt count');
  }
  const { clock, sealer, limits } = deps;
  checkPurpose(check.purpose);
  const target = targetFilter(check);
  const guessKey = `${check.purpose}:${target.userId ?? ''}:${target.email ?? ''}:${target.phoneNumber ?? ''}`;
  // Spent first, whether or not a code exists, so concurrent checks cannot overtake the count and the
  // refusal says nothing about which targets have codes (or accounts).
  await limits.consume('otp_guess', guessKey);
  const now = clock.now();
  const [row] = await em.find(Otp, { ...target, purpose: check.purpose, usedAt: null }, { orderBy: { createdAt: 'desc' }, limit: 1, refresh: true });
  if (!row || row.expiresAt.getTime() <= now.getTime()) throw AppError.invalid(INVALID_OTP_MESSAGE);
  if (row.attempts >= MAX_OTP_ATTEMPTS) throw new AppError('too_many_requests', OTP_ATTEMPTS_EXHAUSTED_MESSAGE);
  // Count this check before looking at the code; of two concurrent checks only one gets this attempt.
  const counted = await em.nativeUpdate(Otp, { id: row.id, attempts: row.attempts, usedAt: null }, { attempts: row.attempts + 1, updatedAt: now });
  if (counted !== 1) throw AppError.invalid(INVALID_OTP_MESSAGE);
  if (typeof check.code !== 'string' || !matches(sealer, row, check.code.trim())) {
    if (row.attempts + 1 >= MAX_OTP_ATTEMPTS) throw new AppError('too_many_requests', OTP_ATTEMPTS_EXHAUSTED_MESSAGE);
    throw AppError.invalid(INVALID_OTP_MESSAGE);
  }
  const used = await em.nativeUpdate(Otp, { id: row.id, usedAt: null }, { usedAt: now, updatedAt: now });
  if (used !== 1) throw AppError.invalid(INVALID_OTP_MESSAGE);
  await limits.reset('otp_guess', guessKey);
  return (await em.findOne(Otp, { id: row.id }, { refresh: true })) ?? row;
}

/** Removes every code of a user, email address or phone number (delete_user). Answers the count. */
export async function deleteOtpsFor(em: EntityManager, owner: OtpTarget): Promise<number> {
  const filters: FilterQuery<OtpRow>[] = [];
  if (owner.userId) filters.push({ userId: owner.userId });
  if (owner.email) filters.push({ email: normaliseEmail(owner.email) });
  if (owner.phone) filters.push({ phoneNumber: owner.phone.trim() });
  // Without an owner the filter would be empty and match every row.
  if (filters.length === 0) throw new Error('deleteOtpsFor needs a userId, an email or a phone number');
  return em.nativeDelete(Otp, { $or: filters });
}
