/**
 * The MFA gate, a step of every sign-in after its first factor (a password, an emailed link, a texted code)
 * and before its tokens (docs/api-overview.md#states-and-transitions: the access token is withheld while an MFA challenge or a
 * first-time offer is pending; docs/operations.md#login "returns ... MFA challenge flags"; docs/api-overview.md#authentication the `mfa` cookie).
 *
 * - A user with a verified factor this instance offers is challenged: the `mfa` cookie, no token, and a flag
 *   per factor (`should_show_totp_screen`, `should_offer_webauthn_mfa_verify`, `should_show_email_otp_screen`,
 *   `should_show_mobile_otp_screen`). When codes by email or SMS are the user's only factors, the first code
 *   leaves at once; otherwise the screen asks for one with resend_otp.
 * - A user without one is offered to enrol (`should_offer_*_setup`, token withheld) when `--enforce-mfa` is on,
 *   or when the user asked for a second factor (`is_multi_factor_auth_enabled`) and has not declined the offer
 *   (skip_mfa_setup records that). The authenticator app's offer is a new enrolment in the answer itself.
 * - Everyone else signs in as before, so integrations of users without a second factor see no change.
 *
 * Only the sign-in policy (sign-in-policy.ts) calls it, after the account checks (a locked account never
 * reaches the gate).
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { mfaCookie } from '../../kernel/cookies.ts';
import type { UserRow } from '../users/index.ts';
import { enabledMfaMethods, openChallenge, type MfaMethod, type NewChallenge } from '../mfa/index.ts';
import type { AuthResponse } from './accounts.schema.ts';
import { sendMfaCode } from './mfa-codes.ts';
import { newTotpEnrolment } from './totp-enrolment.ts';

export const MFA_CHALLENGE_MESSAGE = 'Second factor required: complete the MFA challenge';
export const MFA_OFFER_MESSAGE = 'Set up a second factor to finish signing in';
export const MFA_LOCKED_MESSAGE = 'multi-factor authentication is locked for this account: an administrator must reset it';

type Answer = Static<typeof AuthResponse>;

/** The enrolled factors of `user` this instance checks. */
export function usableFactors(user: UserRow, offered: readonly MfaMethod[]): MfaMethod[] {
  const enrolled = new Set(user.enrolledMfaMethods ?? []);
  return offered.filter((method) => enrolled.has(method));
}

function challengeFlags(factors: readonly MfaMethod[]): Answer {
  const has = (method: MfaMethod) => factors.includes(method) || undefined;
  return {
    message: MFA_CHALLENGE_MESSAGE,
    should_show_totp_screen: has('totp'),
    should_offer_webauthn_mfa_verify: has('webauthn'),
    should_show_email_otp_screen: has('email_otp'),
    should_show_mobile_otp_screen: has('sms_otp'),
  };
}

/**
 * The offer's flags. The code methods need somewhere to send the code: the user's own address or number.
 * The authenticator app has no offer flag of its own (docs/operations.md: `should_offer_mfa_setup` is always
 * unset): as in the released line, the answer carries `should_show_totp_screen` with a new enrolment (the
 * secret, its QR image and recovery codes), which verify_otp with `is_totp` and the offer's cookie confirms.
 */
async function offerFlags(ctx: HandlerContext, user: UserRow, offered: readonly MfaMethod[]): Promise<Answer> {
  const on = (method: MfaMethod, reachable = true) => (offered.includes(method) && reachable) || undefined;
  const totp = offered.includes('totp') ? { should_show_totp_screen: true, ...(await newTotpEnrolment(ctx, user)) } : {};
  return {
    message: MFA_OFFER_MESSAGE,
    ...totp,
    should_offer_webauthn_mfa_setup: on('webauthn'),
    should_offer_email_otp_mfa_setup: on('email_otp', Boolean(user.email)),
    should_offer_sms_otp_mfa_setup: on('sms_otp', Boolean(user.phoneNumber)),
  };
}

/**
 * The code of a challenge opened by a first step. When the destination's hourly allowance of messages is
 * spent, the challenge still opens without it (the screen can ask again later): a refusal here would turn
 * the allowance into a way to stop the user signing in at all.
 */
async function sendFirstCode(ctx: HandlerContext, user: UserRow, method: 'email_otp' | 'sms_otp'): Promise<void> {
  try {
    await sendMfaCode(ctx, user, method);
  } catch (err) {
    if (!(err instanceof AppError && err.kind === 'too_many_requests')) throw err;
    ctx.log.warn({ userId: user.id, method }, 'MFA code not sent: the destination is over its hourly allowance');
  }
}

function offerWanted(ctx: HandlerContext, user: UserRow): boolean {
  if (ctx.deps.config.enforceMfa) return true;
  return Boolean(user.isMultiFactorAuthEnabled) && !user.hasSkippedMfaSetupAt;
}

/** The challenge or offer answer when `user` must pass the gate; undefined when the sign-in may complete. */
export async function secondFactorChallenge(ctx: HandlerContext, user: UserRow, login: Omit<NewChallenge, 'userId' | 'stage'>): Promise<Answer | undefined> {
  const { config } = ctx.deps;
  if (config.disableMfa) return undefined;
  const offered = enabledMfaMethods(config);
  const factors = usableFactors(user, offered);
  if (factors.length > 0) {
    const cookie = await openChallenge(ctx.em, ctx.deps, { ...login, userId: user.id, stage: 'verify' });
    ctx.effects.setCookie(mfaCookie(config, cookie));
    const codesOnly = factors.every((method) => method === 'email_otp' || method === 'sms_otp');
    if (codesOnly) await sendFirstCode(ctx, user, factors[0] as 'email_otp' | 'sms_otp');
    return challengeFlags(factors);
  }
  if (offered.length === 0 || !offerWanted(ctx, user)) return undefined;
  const cookie = await openChallenge(ctx.em, ctx.deps, { ...login, userId: user.id, stage: 'offer' });
  ctx.effects.setCookie(mfaCookie(config, cookie));
  return offerFlags(ctx, user, offered);
}
