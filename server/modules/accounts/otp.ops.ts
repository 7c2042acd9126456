/**
 * verify_otp and resend_otp (docs/operations.md): the SMS code of phone verification at signup
 * (--enable-phone-verification), where a verified code marks the phone number verified and signs the user
 * in (session cookies as for login; docs/api-overview.md#authentication); and, with `is_totp`, the authenticator app's
 * code, which completes a login's MFA challenge or a new app's enrolment; with the `mfa` cookie, or from a
 * signed-in user adding a factor, an emailed or texted second-factor code (mfa-verify.ts).
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse, type Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { findUserByEmail, findUserByPhone, markPhoneVerified, requirePhoneNumber, rolesForLogin, type UserRow } from '../users/index.ts';
import { consumeOtp } from '../verification/index.ts';
import { AuthResponse, ResendOTPRequest, VerifyOTPRequest } from './accounts.schema.ts';
import { signIn } from './sign-in-policy.ts';
import { enqueueMessage } from '../messages/index.ts';
import { MFA_COOKIE } from '../../kernel/cookies.ts';
import { verifyMfaCode, verifyTotp } from './mfa-verify.ts';
import { resendMfaCode } from './mfa-resend.ts';

const PURPOSE = 'verify_otp';

async function userOf(ctx: HandlerContext, input: { email?: string; phone_number?: string }): Promise<UserRow | null> {
  if (!input.email && !input.phone_number) throw AppError.invalid('email or phone_number is required');
  return input.phone_number ? findUserByPhone(ctx.em, input.phone_number) : findUserByEmail(ctx.em, input.email!);
}

export const verifyOtpOp = defineOperation({
  name: 'verify_otp',
  admin: false,
  kind: 'mutation',
  description: 'Completes a one-time-code challenge (phone verification, or with is_totp an MFA challenge or a TOTP enrolment)',
  input: VerifyOTPRequest,
  output: AuthResponse,
  auth: 'public',
  // A wrong code is counted (five attempts); a transaction rolled back by the refusal would undo the count.
  transaction: false,
  handler: async (input: Static<typeof VerifyOTPRequest>, ctx) => {
    if (input.is_totp) return verifyTotp(input, ctx);
    const gated = await verifyMfaCode(input, ctx);
    if (gated) return gated;
    const user = await userOf(ctx, input);
    if (!user) throw AppError.invalid('invalid or expired otp');
    const { clock } = ctx.deps;
    // A code proves the number it was texted to (users/address-proof.ts), so it is bound to that number: one
    // sent before the account moved to another number must not mark the new one verified.
    const sentTo = input.phone_number !== undefined ? { phone: user.phoneNumber } : {};
    await consumeOtp(ctx.em, ctx.deps, { userId: user.id, ...sentTo, purpose: PURPOSE, code: input.otp });
    return ctx.em.transactional(async (tx) => {
      const managed = tx.merge(user);
      const firstVerification = input.phone_number !== undefined && !managed.phoneNumberVerifiedAt;
      if (firstVerification) markPhoneVerified(managed, 'code', clock.now());
      managed.updatedAt = clock.now();
      // The code proved possession of the phone or mailbox, not a password (RFC 8176 section 2: `sms` and
      // `otp` for a texted code, `otp` for an emailed one; claims.ts amrFor).
      const loginMethod = input.phone_number ? 'mobile_otp' : 'email_otp';
      const outcome = await signIn({ ...ctx, em: tx }, {
        strategy: 'texted_code',
        user: managed,
        loginMethod,
        roles: rolesForLogin(managed),
        scope: [],
        message: 'OTP verified successfully.',
        signup: firstVerification,
      });
      return outcome.response;
    });
  },
});

export const resendOtpOp = defineOperation({
  name: 'resend_otp',
  admin: false,
  kind: 'mutation',
  description: 'Sends a fresh one-time code (phone verification, or with the mfa cookie the second factor\'s code)',
  input: ResendOTPRequest,
  output: MessageResponse,
  auth: 'public',
  handler: async (input, ctx) => {
    // With the `mfa` cookie: a fresh second-factor code to the account's own address or number.
    if (ctx.credentials.cookies[MFA_COOKIE]) return resendMfaCode(input, ctx);
    if (!input.email && !input.phone_number) throw AppError.invalid('email or phone_number is required');
    // The same answer whether or not the account exists or waits for a code (OWASP ASVS 2.5.x): the outbox
    // worker decides whether the number gets a code.
    if (input.phone_number && ctx.deps.config.enablePhoneVerification) {
      await enqueueMessage(ctx, { channel: 'sms', flow: PURPOSE, to: requirePhoneNumber(input.phone_number) });
    }
    return { message: 'OTP has been sent. Please check your inbox' };
  },
});

export const otpOperations = [verifyOtpOp, resendOtpOp];
