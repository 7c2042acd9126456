/**
 * The MFA setup operations (docs/operations.md; docs/api-overview.md#states-and-transitions, "TOTP enrollment" and "MFA enrollment created,
 * unverified"), for a signed-in user adding a factor or for a user in a first-time offer (the `mfa` cookie of
 * a pending offer; modules/mfa/mfa-authenticator.ts). Each starts an enrolment that verify_otp completes with
 * a first right code (accounts/mfa-verify.ts); on the offer path that completion also issues the withheld
 * sign-in.
 * - totp_mfa_setup: a new secret, its QR image and ten recovery codes, each shown this once (only the sealed
 *   secret and the codes' digests are stored); nothing is sent anywhere.
 * - email_otp_mfa_setup / sms_otp_mfa_setup: a code to the account's own address or number.
 * A signed-in user adds a factor only after a recent sign-in (step-up.ts): a stolen session must not enrol
 * the thief's authenticator app, which would then pass this account's second-factor challenge.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { s, type Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { findUserById, toPublicUser } from '../users/index.ts';
import type { UserRow } from '../users/index.ts';
import { beginOtpEnrolment, emailOtpEnabled, smsOtpEnabled, totpEnabled, MFA_SESSION_REFUSAL, type OtpMethod } from '../mfa/index.ts';
import { newTotpEnrolment } from './totp-enrolment.ts';
import { AuthResponse } from './accounts.schema.ts';
import { callerUser } from './profile.ops.ts';
import { checkResendCooldown, sendMfaCode } from './mfa-codes.ts';
import { requireRecentAuthentication } from './step-up.ts';

const optionalString = () => s.optional(s.string());

/** The MFA setup operations (docs/operations.md#totp_mfa_setup) take `email?`, `phone_number?` (`state?`); the caller is itself. */
export const MfaSetupRequest = s.object('MfaSetupRequest', {
  email: optionalString(),
  phone_number: optionalString(),
  state: optionalString(),
});

/** The signed-in user, or the user of the pending offer the `mfa` cookie names. */
export async function enrollingUser(ctx: HandlerContext): Promise<UserRow> {
  if (ctx.caller.kind !== 'mfa') return callerUser(ctx);
  const user = await findUserById(ctx.em, ctx.caller.userId);
  if (!user || user.deactivatedAt) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  return user;
}

export const totpMfaSetupOp = defineOperation({
  name: 'totp_mfa_setup',
  admin: false,
  kind: 'mutation',
  description: 'Starts an authenticator-app (TOTP) factor: a new secret, its QR image and recovery codes; completed by verify_otp with is_totp',
  input: MfaSetupRequest,
  output: AuthResponse,
  auth: 'user_or_mfa_cookie',
  handler: async (_input: Static<typeof MfaSetupRequest>, ctx): Promise<Static<typeof AuthResponse>> => {
    const { config } = ctx.deps;
    if (!totpEnabled(config)) throw AppError.precondition('authenticator apps (TOTP) are disabled for this instance');
    const user = await enrollingUser(ctx);
    await requireRecentAuthentication(ctx, 'add an authenticator app');
    return {
      message: 'Scan the QR code with your authenticator app, then confirm with a code from it',
      ...(await newTotpEnrolment(ctx, user)),
      user: toPublicUser(user),
    };
  },
});

function codeSetupOp(name: 'email_otp_mfa_setup' | 'sms_otp_mfa_setup', method: OtpMethod) {
  const channel = method === 'email_otp' ? 'email' : 'SMS';
  return defineOperation({
    name,
    admin: false,
    kind: 'mutation',
    description: `Starts a second factor of one-time codes by ${channel} to the caller's own ${method === 'email_otp' ? 'address' : 'number'}; completed by verify_otp`,
    input: MfaSetupRequest,
    output: AuthResponse,
    auth: 'user_or_mfa_cookie',
    handler: async (_input: Static<typeof MfaSetupRequest>, ctx): Promise<Static<typeof AuthResponse>> => {
      const enabled = method === 'email_otp' ? emailOtpEnabled(ctx.deps.config) : smsOtpEnabled(ctx.deps.config);
      if (!enabled) throw AppError.precondition(`one-time codes by ${channel} are not available on this instance`);
      const user = await enrollingUser(ctx);
      await requireRecentAuthentication(ctx, `add one-time codes by ${channel}`);
      await beginOtpEnrolment(ctx.em, ctx.deps.clock, user.id, method);
      await checkResendCooldown(ctx, user.id, method);
      await sendMfaCode(ctx, user, method);
      return {
        message: `A code was sent by ${channel}: confirm it with verify_otp`,
        should_show_email_otp_screen: method === 'email_otp' || undefined,
        should_show_mobile_otp_screen: method === 'sms_otp' || undefined,
        user: toPublicUser(user),
      };
    },
  });
}

export const emailOtpMfaSetupOp = codeSetupOp('email_otp_mfa_setup', 'email_otp');
export const smsOtpMfaSetupOp = codeSetupOp('sms_otp_mfa_setup', 'sms_otp');

export const mfaSetupOperations = [totpMfaSetupOp, emailOtpMfaSetupOp, smsOtpMfaSetupOp];
