/**
 * Email and SMS one-time codes as a second factor
 * (docs/api-overview.md#states-and-transitions, "MFA enrollment created, unverified (email OTP, SMS OTP)"): the
 * factor row says that the user's own address or number receives
 * the codes; it counts once a first code sent there came back (verified). The codes themselves are the
 * verification module's one-time codes (six CSPRNG digits, a sealed digest at rest, five attempts, single
 * use; verification/otp.service.ts), under a purpose of their own so that no other flow's code serves here.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { MfaFactor, type MfaFactorRow } from './mfa-factor.entity.ts';
import { addEnrolledMethod } from './enrolled-methods.ts';

export type OtpMethod = 'email_otp' | 'sms_otp';

/** The one-time code purpose of each channel's second-factor codes. */
export const MFA_OTP_PURPOSE: Record<OtpMethod, string> = { email_otp: 'mfa_email_otp', sms_otp: 'mfa_sms_otp' };

/** Minutes a second-factor code stays valid (the issue of record asks for ten). */
export const MFA_OTP_TTL_SECONDS = 10 * 60;

/** The user's factor of `method`, verified or not. */
export function factorOf(em: EntityManager, userId: string, method: string): Promise<MfaFactorRow | null> {
  return em.findOne(MfaFactor, { userId, method }, { refresh: true });
}

/**
 * Creates the unverified factor, or keeps the unverified one there is. A verified one is refused: it
 * already receives codes. Flushes `em`.
 */
export async function beginOtpEnrolment(em: EntityManager, clock: Clock, userId: string, method: OtpMethod): Promise<void> {
  const existing = await factorOf(em, userId, method);
  if (existing?.verifiedAt) throw AppError.precondition(`${method === 'email_otp' ? 'email' : 'SMS'} codes are already set up for this account`);
  if (existing) return;
  const now = clock.now();
  em.create(MfaFactor, { id: randomUUID(), userId, method, secretSealed: null, lastUsedStep: null, verifiedAt: null, createdAt: now, updatedAt: now });
  await em.flush();
}

/**
 * Marks the factor verified after its first right code, by compare-and-set so that one of two racing
 * confirmations does the write. Answers false when there is no unverified factor of `method`.
 */
export async function confirmOtpFactor(em: EntityManager, clock: Clock, userId: string, method: OtpMethod): Promise<boolean> {
  const now = clock.now();
  const moved = await em.nativeUpdate(MfaFactor, { userId, method, verifiedAt: null }, { verifiedAt: now, updatedAt: now });
  if (moved !== 1) return false;
  await addEnrolledMethod(em, clock, userId, method);
  return true;
}

/** The code methods of `userId` waiting for their first code. */
export async function pendingOtpMethods(em: EntityManager, userId: string): Promise<OtpMethod[]> {
  const rows = await em.find(MfaFactor, { userId, method: { $in: ['email_otp', 'sms_otp'] }, verifiedAt: null });
  return rows.map((row) => row.method as OtpMethod);
}
