/**
 * The MFA challenge of a login (docs/api-overview.md#states-and-transitions: the access token is withheld while a challenge is
 * pending; docs/api-overview.md#authentication: the short-lived `mfa` cookie identifies it). The password step opens one for a user with
 * a verified second factor; verify_otp completes it with a right code, once.
 *
 * Guessing is bounded twice: five wrong codes end a challenge (the row counts them by compare-and-set, so
 * concurrent guesses cannot share an attempt), and, because someone holding the password could open
 * challenge after challenge, the user's `otp_guess` allowance (ten an hour, modules/limits/policies.ts) is
 * spent before every check and given back by a right code (OWASP ASVS 2.2.1).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { MFA_COOKIE_SECONDS } from '../../kernel/cookies.ts';
import { MfaChallenge, type MfaChallengeRow } from './mfa-challenge.entity.ts';

/** Wrong codes a challenge takes before it ends (the same count as an emailed or texted code's). */
export const MAX_CHALLENGE_ATTEMPTS = 5;
/** One refusal for a missing, unknown, expired or exhausted challenge: the answer says nothing of which. */
export const MFA_SESSION_REFUSAL = 'MFA session expired or invalid: log in again';
/**
 * A wrong second-factor code. Worded for the person at the screen ("otp" is the wire field's name, not a
 * word they know); the phone-verification flow keeps the released line's 'invalid or expired otp'.
 */
export const INVALID_MFA_CODE = 'wrong or expired code: check the newest code and try again';

export type ChallengeStage = 'verify' | 'offer';

export interface NewChallenge {
  userId: string;
  stage: ChallengeStage;
  roles: string[];
  scope: string[];
  loginMethod: string;
  nonce?: string;
}

/**
 * Opens a challenge and answers the cookie value that names it. The user's earlier challenges are removed
 * first: a login replaces the one before it. Expired ones are the background sweep's (challenge-sweep.ts).
 */
export async function openChallenge(em: EntityManager, deps: Pick<Deps, 'clock'>, input: NewChallenge): Promise<string> {
  const cookie = randomToken(32);
  const now = deps.clock.now();
  await em.nativeDelete(MfaChallenge, { userId: input.userId });
  em.create(MfaChallenge, {
    id: sha256Hex(cookie),
    userId: input.userId,
    stage: input.stage,
    roles: input.roles,
    scope: input.scope,
    loginMethod: input.loginMethod,
    nonce: input.nonce ?? null,
    attempts: 0,
    expiresAt: new Date(now.getTime() + MFA_COOKIE_SECONDS * 1000),
    createdAt: now,
  });
  await em.flush();
  return cookie;
}

/**
 * The live challenge the cookie names; refused when there is none (missing, unknown, expired, exhausted) or
 * when it is not in `stage`.
 */
export async function liveChallenge(em: EntityManager, deps: Pick<Deps, 'clock'>, cookie: string | undefined, stage?: ChallengeStage): Promise<MfaChallengeRow> {
  if (!cookie) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  const row = await em.findOne(MfaChallenge, { id: sha256Hex(cookie) }, { refresh: true });
  if (!row || row.expiresAt.getTime() <= deps.clock.now().getTime() || row.attempts >= MAX_CHALLENGE_ATTEMPTS) {
    throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  }
  if (stage && row.stage !== stage) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  return row;
}

/** The challenge an `mfa` caller was authenticated with, read again (its attempts may have moved). */
export async function callerChallenge(em: EntityManager, deps: Pick<Deps, 'clock'>, challengeId: string): Promise<MfaChallengeRow> {
  const row = await em.findOne(MfaChallenge, { id: challengeId }, { refresh: true });
  if (!row || row.expiresAt.getTime() <= deps.clock.now().getTime() || row.attempts >= MAX_CHALLENGE_ATTEMPTS) {
    throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  }
  return row;
}

/**
 * Ends a challenge that a completed step used up (an offer declined or answered by a new factor): only one
 * request can remove the row, so one cookie completes one sign-in.
 */
export async function closeChallenge(em: EntityManager, challenge: Pick<MfaChallengeRow, 'id'>): Promise<void> {
  const removed = await em.nativeDelete(MfaChallenge, { id: challenge.id });
  if (removed !== 1) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
}

/** Removes every pending challenge of a user (an admin's MFA reset, a lock). */
export async function dropChallenges(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(MfaChallenge, { userId });
}

/**
 * Runs `check` (the code against the user's factor) as one counted attempt of the challenge: the user's
 * allowance and the challenge's attempt are spent first; a right code gives the allowance back and removes
 * the challenge (only one request can remove it, so a code completes one login). Answers normally only when
 * the code was right and this request removed the challenge.
 */
export async function spendAttempt(em: EntityManager, deps: Pick<Deps, 'clock' | 'limits'>, challenge: MfaChallengeRow, check: () => Promise<boolean>): Promise<void> {
  const guessKey = `mfa:${challenge.userId}`;
  await deps.limits.consume('otp_guess', guessKey);
  const counted = await em.nativeUpdate(MfaChallenge, { id: challenge.id, attempts: challenge.attempts }, { attempts: challenge.attempts + 1 });
  if (counted !== 1) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  if (!(await check())) {
    if (challenge.attempts + 1 >= MAX_CHALLENGE_ATTEMPTS) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
    throw AppError.invalid(INVALID_MFA_CODE);
  }
  const removed = await em.nativeDelete(MfaChallenge, { id: challenge.id, attempts: challenge.attempts + 1 });
  if (removed !== 1) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  await deps.limits.reset('otp_guess', guessKey);
}
