/**
 * resend_otp with the `mfa` cookie (docs/operations.md#resend_otp "none or MFA cookie";
 * docs/api-overview.md#authentication, "Cookie mfa ... set by ... resend_otp"): a fresh code of the user's email or
 * SMS factor, sent to the address or
 * number on the account, never to one the request names, after the cool-down (accounts/mfa-codes.ts).
 * During a challenge only enrolled factors get codes; during an offer, the factor being set up.
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { MFA_COOKIE } from '../../kernel/cookies.ts';
import { findUserById } from '../users/index.ts';
import { liveChallenge, MFA_SESSION_REFUSAL, type OtpMethod } from '../mfa/index.ts';
import type { ResendOTPRequest } from './accounts.schema.ts';
import { checkResendCooldown, codeFactorsOf, namedMethod, sendMfaCode } from './mfa-codes.ts';

export async function resendMfaCode(input: Static<typeof ResendOTPRequest>, ctx: HandlerContext): Promise<{ message: string }> {
  const challenge = await liveChallenge(ctx.em, ctx.deps, ctx.credentials.cookies[MFA_COOKIE]);
  const user = await findUserById(ctx.em, challenge.userId);
  if (!user) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  const candidates = await codeFactorsOf(ctx, challenge, user);
  // The SDK sends the login's email or phone number, which need not name the channel of the factor: the
  // named channel when it is one of the user's, else the user's first.
  const explicit = namedMethod(input);
  if (explicit && !candidates.includes(explicit)) throw AppError.precondition(`no ${explicit} factor to send a code for`);
  const named: OtpMethod | undefined = explicit ?? (input.phone_number ? 'sms_otp' : input.email ? 'email_otp' : undefined);
  const wanted = named && candidates.includes(named) ? named : candidates[0];
  if (!wanted) throw AppError.precondition('no one-time code factor to send a code for');
  await checkResendCooldown(ctx, user.id, wanted);
  await sendMfaCode(ctx, user, wanted);
  return { message: wanted === 'email_otp' ? 'OTP has been sent. Please check your inbox' : 'OTP has been sent. Please check your phone' };
}
