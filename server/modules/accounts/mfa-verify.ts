/**
 * verify_otp as the MFA step (docs/operations.md#verify_otp, "none or MFA cookie"; docs/api-overview.md#states-and-transitions the MFA states):
 * - With the `mfa` cookie of a challenge (stage `verify`): a right code of one of the user's factors (the
 *   authenticator app or a recovery code with `is_totp`; an emailed or texted code without) completes the
 *   sign-in the first step began (accounts/mfa-complete.ts).
 * - With the cookie of a first-time offer (stage `offer`): the first right code of the factor the user
 *   just set up verifies it and completes the sign-in.
 * - Without it, from a signed-in user (bearer token or session cookie): the first right code of a factor
 *   being added verifies it. No new tokens: the caller already has a session.
 * Every attempt on a cookie counts against its challenge (five) and the user's hourly allowance
 * (modules/mfa/mfa-challenge.ts). Every wrong code is audited as `user.mfa_failed` (mfa-failure-audit.ts).
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { MFA_COOKIE } from '../../kernel/cookies.ts';
import { findUserByEmail, findUserByPhone, findUserById, toPublicUser } from '../users/index.ts';
import {
  checkTotpFactor, confirmOtpFactor, liveChallenge, looksLikeRecoveryCode, pendingOtpMethods, spendAttempt, totpEnabled, useRecoveryCode,
  INVALID_MFA_CODE, MFA_SESSION_REFUSAL, type MfaChallengeRow, type OtpMethod,
} from '../mfa/index.ts';
import { userCredentialsPresented } from '../tokens/index.ts';
import type { AuthResponse, VerifyOTPRequest } from './accounts.schema.ts';
import { finishGatedLogin } from './mfa-complete.ts';
import { codeFactorsOf, lastSentMethod, mfaCodeIsRight, namedMethod } from './mfa-codes.ts';
import { audit } from '../audit/index.ts';
import { auditedAttempt, type MfaAttempt } from './mfa-failure-audit.ts';

type Input = Static<typeof VerifyOTPRequest>;
type Answer = Static<typeof AuthResponse>;

/** verify_otp with `is_totp`: the authenticator app (or a recovery code on a challenge). */
export async function verifyTotp(input: Input, ctx: HandlerContext): Promise<Answer> {
  if (!totpEnabled(ctx.deps.config)) throw AppError.precondition('authenticator apps (TOTP) are disabled for this instance');
  const cookie = ctx.credentials.cookies[MFA_COOKIE];
  if (cookie) {
    const challenge = await namedChallenge(ctx, input, cookie);
    const code = input.otp.trim();
    const { em, deps } = ctx;
    if (challenge.stage === 'offer') {
      await auditedAttempt(ctx, { userId: challenge.userId, method: 'totp', stage: 'enrolment' }, (judged) =>
        spendAttempt(em, deps, challenge, judged(() => checkTotpFactor(em, deps, challenge.userId, code, { enrolment: true }))));
      await auditEnrolment(ctx, challenge.userId, 'totp');
      return finishGatedLogin(ctx, challenge, 'totp');
    }
    let factor = 'totp';
    // A code shaped like a recovery code is audited as one when wrong; it is tried as an app code first.
    const attempted = looksLikeRecoveryCode(code) ? 'recovery_code' : 'totp';
    await auditedAttempt(ctx, { userId: challenge.userId, method: attempted, stage: 'sign_in' }, (judged) =>
      spendAttempt(em, deps, challenge, judged(async () => {
        if (await checkTotpFactor(em, deps, challenge.userId, code)) return true;
        if (!looksLikeRecoveryCode(code) || !(await useRecoveryCode(em, deps, challenge.userId, code))) return false;
        factor = 'recovery_code';
        return true;
      })));
    return finishGatedLogin(ctx, challenge, factor);
  }
  const userId = await signedInUserId(ctx);
  await guarded(ctx, { userId, method: 'totp', stage: 'enrolment' }, () => checkTotpFactor(ctx.em, ctx.deps, userId, input.otp.trim(), { enrolment: true }));
  return enrolled(ctx, userId, 'totp', 'Authenticator app verified: every login now asks for a code from it');
}

/**
 * verify_otp without `is_totp` on the MFA path: answers undefined when the request is not on it (no `mfa`
 * cookie, and no signed-in user with a code factor waiting for its first code), so the caller goes on with
 * phone verification (accounts/otp.ops.ts).
 */
export async function verifyMfaCode(input: Input, ctx: HandlerContext): Promise<Answer | undefined> {
  const cookie = ctx.credentials.cookies[MFA_COOKIE];
  const code = input.otp.trim();
  if (cookie) {
    const challenge = await namedChallenge(ctx, input, cookie);
    const user = await findUserById(ctx.em, challenge.userId);
    if (!user) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
    const method = await pickMethod(ctx, user.id, await codeFactorsOf(ctx, challenge, user), input);
    const stage = challenge.stage === 'offer' ? 'enrolment' : 'sign_in';
    await auditedAttempt(ctx, { userId: user.id, method: method ?? 'unknown', stage }, (judged) =>
      spendAttempt(ctx.em, ctx.deps, challenge, judged(async () => {
        if (!method || !(await mfaCodeIsRight(ctx, challenge.userId, method, code))) return false;
        if (challenge.stage === 'offer') await confirmOtpFactor(ctx.em, ctx.deps.clock, challenge.userId, method);
        return true;
      })));
    if (challenge.stage === 'offer' && method) await auditEnrolment(ctx, challenge.userId, method);
    return finishGatedLogin(ctx, challenge, method);
  }
  if (!userCredentialsPresented(ctx)) return undefined;
  // Stale credentials beside a phone verification code are not this path's business: the phone flow goes on.
  const userId = await signedInUserId(ctx).catch(() => undefined);
  if (!userId) return undefined;
  const method = await pickMethod(ctx, userId, await pendingOtpMethods(ctx.em, userId), input);
  if (!method) return undefined;
  await guarded(ctx, { userId, method, stage: 'enrolment' }, async () => (await mfaCodeIsRight(ctx, userId, method, code)) && confirmOtpFactor(ctx.em, ctx.deps.clock, userId, method));
  return enrolled(ctx, userId, method, `${method === 'email_otp' ? 'Email' : 'SMS'} codes verified: they can now serve as a second factor`);
}

/**
 * Of the code methods that could be meant: the one `mfa_method` names, else the one a phone number names,
 * else the one whose code was sent last (a user who signs in by email may have chosen the SMS code).
 */
async function pickMethod(ctx: HandlerContext, userId: string, candidates: readonly OtpMethod[], input: Input): Promise<OtpMethod | undefined> {
  const named = namedMethod(input);
  if (named) return candidates.includes(named) ? named : undefined;
  if (input.phone_number && candidates.includes('sms_otp')) return 'sms_otp';
  return lastSentMethod(ctx, userId, candidates);
}

/** The cookie's live challenge; the SDK sends the login's email or phone number, and another account's is refused. */
async function namedChallenge(ctx: HandlerContext, input: Input, cookie: string): Promise<MfaChallengeRow> {
  const challenge = await liveChallenge(ctx.em, ctx.deps, cookie);
  let named: string | undefined;
  if (input.email) named = (await findUserByEmail(ctx.em, input.email))?.id ?? '';
  else if (input.phone_number) named = (await findUserByPhone(ctx.em, input.phone_number))?.id ?? '';
  if (named !== undefined && named !== challenge.userId) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  return challenge;
}

async function signedInUserId(ctx: HandlerContext): Promise<string> {
  const authenticate = ctx.deps.authenticators.user;
  if (!authenticate) throw new Error('no user authenticator');
  const caller = await authenticate(ctx).catch(() => {
    throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  });
  if (caller.kind !== 'user') throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  return caller.userId;
}

/** A signed-in enrolment's check, under the user's hourly allowance of wrong codes; failures are audited. */
async function guarded(ctx: HandlerContext, attempt: MfaAttempt, check: () => Promise<boolean>): Promise<void> {
  const guessKey = `mfa:${attempt.userId}`;
  await auditedAttempt(ctx, attempt, async (judged) => {
    await ctx.deps.limits.consume('otp_guess', guessKey);
    if (!(await judged(check)())) throw AppError.invalid(INVALID_MFA_CODE);
  });
  await ctx.deps.limits.reset('otp_guess', guessKey);
}

/** A second factor's setup confirmed (docs/api-overview.md#resources-and-fields, "AuditLog"): the method only, never the code or secret. */
async function auditEnrolment(ctx: HandlerContext, userId: string, method: string, email?: string | null): Promise<void> {
  await audit(ctx, { action: 'user.mfa_setup_verified', actor: { type: 'user', id: userId, email }, resourceType: 'user', resourceId: userId, metadata: { mfa_method: method } });
}

async function enrolled(ctx: HandlerContext, userId: string, method: string, message: string): Promise<Answer> {
  const user = await findUserById(ctx.em, userId);
  if (!user) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  await auditEnrolment(ctx, userId, method, user.email);
  return { message, user: toPublicUser(user) };
}
