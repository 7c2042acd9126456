/**
 * verify_otp with `is_totp` (specification part 4.1): either the second step of a login, or the first
 * code of a new authenticator app.
 * - With the `mfa` cookie (specification part 5): the login's challenge (accounts/mfa-gate.ts). A right code
 *   of the user's app, or one of their unused recovery codes, completes the login the password step began:
 *   session cookies and tokens as for any login, with the second factor in `amr` (tokens/claims.ts), and
 *   the `mfa` cookie cleared. Each attempt is counted (modules/mfa/mfa-challenge.ts).
 * - Without it, from a signed-in user (bearer token or session cookie): completes the enrolment that
 *   totp_mfa_setup started. No new tokens: the caller already has a session.
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { MFA_COOKIE } from '../../kernel/cookies.ts';
import { findUserByEmail, findUserByPhone, findUserById } from '../users/index.ts';
import { toPublicUser } from '../users/user.schema.ts';
import {
  checkTotpFactor, liveChallenge, looksLikeRecoveryCode, spendAttempt, totpEnabled, useRecoveryCode, INVALID_MFA_CODE, MFA_SESSION_REFUSAL,
} from '../mfa/index.ts';
import type { AuthResponse, VerifyOTPRequest } from './accounts.schema.ts';
import { finishGatedLogin } from './mfa-complete.ts';

type Input = Static<typeof VerifyOTPRequest>;
type Answer = Static<typeof AuthResponse>;

export async function verifyTotp(input: Input, ctx: HandlerContext): Promise<Answer> {
  if (!totpEnabled(ctx.deps.config)) throw AppError.precondition('authenticator apps (TOTP) are disabled for this instance');
  const cookie = ctx.credentials.cookies[MFA_COOKIE];
  if (cookie) return completeChallenge(input, ctx, cookie);
  return completeEnrolment(input, ctx);
}

/** The user named by email or phone number in the input, when the input names one. */
async function namedUserId(ctx: HandlerContext, input: Input): Promise<string | undefined> {
  if (input.email) return (await findUserByEmail(ctx.em, input.email))?.id ?? '';
  if (input.phone_number) return (await findUserByPhone(ctx.em, input.phone_number))?.id ?? '';
  return undefined;
}

async function completeChallenge(input: Input, ctx: HandlerContext, cookie: string): Promise<Answer> {
  const { em, deps } = ctx;
  const challenge = await liveChallenge(em, deps, cookie, 'verify');
  // The SDK sends the email or phone number of the login; a different account is not this challenge's.
  const named = await namedUserId(ctx, input);
  if (named !== undefined && named !== challenge.userId) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  const code = input.otp.trim();
  let factor = 'totp';
  await spendAttempt(em, deps, challenge, async () => {
    if (await checkTotpFactor(em, deps, challenge.userId, code)) return true;
    if (!looksLikeRecoveryCode(code) || !(await useRecoveryCode(em, deps, challenge.userId, code))) return false;
    factor = 'recovery_code';
    return true;
  });
  return finishGatedLogin(ctx, challenge, factor);
}

async function completeEnrolment(input: Input, ctx: HandlerContext): Promise<Answer> {
  const { em, deps } = ctx;
  const authenticate = deps.authenticators.user;
  if (!authenticate) throw new Error('no user authenticator');
  const caller = await authenticate(ctx).catch(() => {
    throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  });
  if (caller.kind !== 'user') throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  const guessKey = `mfa:${caller.userId}`;
  await deps.limits.consume('otp_guess', guessKey);
  if (!(await checkTotpFactor(em, deps, caller.userId, input.otp.trim(), { enrolment: true }))) throw AppError.invalid(INVALID_MFA_CODE);
  await deps.limits.reset('otp_guess', guessKey);
  const user = await findUserById(em, caller.userId);
  if (!user) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  return { message: 'Authenticator app verified: every login now asks for a code from it', user: toPublicUser(user) };
}
