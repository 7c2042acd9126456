/**
 * Sending and checking a second factor's code by email or SMS (modules/mfa/otp-factor.ts). The code leaves
 * through the message outbox like every account message (modules/messages), to the address or number on
 * the account, never to one the request names; the destination's hourly allowance applies.
 *
 * Resending has a cool-down: a new code replaces the one before it (only the newest works), so a caller
 * asking again and again would both flood the user and void the code they are typing.
 */
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from '../users/index.ts';
import { Otp, consumeOtp } from '../verification/index.ts';
import { enqueueMessage, MFA_CODE_FLOW } from '../messages/index.ts';
import { enabledMfaMethods, pendingOtpMethods, MFA_OTP_PURPOSE, type MfaChallengeRow, type OtpMethod } from '../mfa/index.ts';

/** Seconds between two codes of one factor. */
export const MFA_RESEND_COOLDOWN_SECONDS = 30;

export async function sendMfaCode(ctx: HandlerContext, user: UserRow, method: OtpMethod): Promise<void> {
  const to = method === 'email_otp' ? user.email : user.phoneNumber;
  if (!to) throw AppError.precondition(method === 'email_otp' ? 'this account has no email address' : 'this account has no phone number');
  await enqueueMessage(ctx, { channel: method === 'email_otp' ? 'email' : 'sms', flow: MFA_CODE_FLOW, to, userId: user.id });
}

/** Refuses a resend within the cool-down of the factor's newest code. */
export async function checkResendCooldown(ctx: HandlerContext, userId: string, method: OtpMethod): Promise<void> {
  const [latest] = await ctx.em.find(Otp, { userId, purpose: MFA_OTP_PURPOSE[method] }, { orderBy: { createdAt: 'desc' }, limit: 1, refresh: true });
  if (!latest) return;
  const waited = (ctx.deps.clock.now().getTime() - latest.createdAt.getTime()) / 1000;
  if (waited < MFA_RESEND_COOLDOWN_SECONDS) {
    const wait = MFA_RESEND_COOLDOWN_SECONDS - waited;
    throw AppError.tooManyRequests(`a code was sent moments ago: wait ${Math.ceil(wait)} seconds before asking for another`, wait);
  }
}

/**
 * Checks a code of `method` for the user (single use, five attempts, the otp_guess allowance; otp.service.ts).
 * Answers whether it was right; other refusals (too many attempts) propagate.
 */
export async function mfaCodeIsRight(ctx: HandlerContext, userId: string, method: OtpMethod, code: string): Promise<boolean> {
  try {
    await consumeOtp(ctx.em, ctx.deps, { userId, purpose: MFA_OTP_PURPOSE[method], code });
    return true;
  } catch (err) {
    if (err instanceof AppError && err.kind === 'invalid_argument') return false;
    throw err;
  }
}

/**
 * The code factors a gated sign-in may use: during a challenge the user's enrolled ones this instance
 * offers; during an offer the ones being set up.
 */
export async function codeFactorsOf(ctx: HandlerContext, challenge: MfaChallengeRow, user: UserRow): Promise<OtpMethod[]> {
  if (challenge.stage === 'offer') return pendingOtpMethods(ctx.em, user.id);
  const enrolled = new Set(user.enrolledMfaMethods ?? []);
  return enabledMfaMethods(ctx.deps.config).filter((m): m is OtpMethod => (m === 'email_otp' || m === 'sms_otp') && enrolled.has(m));
}

/** The `mfa_method` a request names, checked: undefined when none is named. */
export function namedMethod(input: { mfa_method?: string }): OtpMethod | undefined {
  if (input.mfa_method === undefined || input.mfa_method === '') return undefined;
  if (input.mfa_method === 'email_otp' || input.mfa_method === 'sms_otp') return input.mfa_method;
  throw AppError.invalid('mfa_method must be email_otp or sms_otp');
}

/** Of the user's code factors, the one whose code was sent last. */
export async function lastSentMethod(ctx: HandlerContext, userId: string, candidates: readonly OtpMethod[]): Promise<OtpMethod | undefined> {
  if (candidates.length < 2) return candidates[0];
  const [latest] = await ctx.em.find(Otp, { userId, purpose: { $in: candidates.map((m) => MFA_OTP_PURPOSE[m]) } }, { orderBy: { createdAt: 'desc' }, limit: 1, refresh: true });
  return candidates.find((m) => latest && MFA_OTP_PURPOSE[m] === latest.purpose) ?? candidates[0];
}
