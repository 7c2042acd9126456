/**
 * verify_otp and resend_otp (specification part 4.1) for the one-time codes this issue sends: the SMS code
 * of phone verification at signup (--enable-phone-verification). A verified code marks the phone number
 * verified and signs the user in (session cookies as for login; specification part 5). The MFA issue adds
 * its challenges (email OTP, TOTP) to the same operations.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse, type Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { findUserByEmail, findUserByPhone, requirePhoneNumber, rolesForLogin, type UserRow } from '../users/index.ts';
import { consumeOtp } from '../verification/index.ts';
import { AuthResponse, ResendOTPRequest, VerifyOTPRequest } from './accounts.schema.ts';
import { completeLogin } from './complete-login.ts';
import { enqueueMessage } from '../messages/index.ts';

const PURPOSE = 'verify_otp';

async function userOf(ctx: HandlerContext, input: { email?: string; phone_number?: string }): Promise<UserRow | null> {
  if (!input.email && !input.phone_number) throw AppError.invalid('email or phone_number is required');
  return input.phone_number ? findUserByPhone(ctx.em, input.phone_number) : findUserByEmail(ctx.em, input.email!);
}

export const verifyOtpOp = defineOperation({
  name: 'verify_otp',
  admin: false,
  kind: 'mutation',
  description: 'Completes a one-time-code challenge (phone verification) and signs the user in',
  input: VerifyOTPRequest,
  output: AuthResponse,
  auth: 'public',
  // A wrong code is counted (five attempts); a transaction rolled back by the refusal would undo the count.
  transaction: false,
  handler: async (input: Static<typeof VerifyOTPRequest>, ctx) => {
    if (input.is_totp) throw AppError.precondition('TOTP is not set up for this account');
    const user = await userOf(ctx, input);
    if (!user) throw AppError.invalid('invalid or expired otp');
    const { clock } = ctx.deps;
    await consumeOtp(ctx.em, ctx.deps, { userId: user.id, purpose: PURPOSE, code: input.otp });
    if (user.revokedAt) throw AppError.forbidden('user access has been revoked');
    return ctx.em.transactional(async (tx) => {
      const managed = tx.merge(user);
      const firstVerification = input.phone_number !== undefined && !managed.phoneNumberVerifiedAt;
      if (firstVerification) managed.phoneNumberVerifiedAt = clock.now();
      managed.updatedAt = clock.now();
      return completeLogin({ ...ctx, em: tx }, managed, {
        roles: rolesForLogin(managed),
        scope: [],
        // The code proved possession of the phone or mailbox, not a password (RFC 8176 section 2: `sms` and
        // `otp` for a texted code, `otp` for an emailed one; claims.ts amrFor).
        loginMethod: input.phone_number ? 'mobile_otp' : 'email_otp',
        message: 'OTP verified successfully.',
        events: firstVerification ? ['user.signup'] : [],
      });
    });
  },
});

export const resendOtpOp = defineOperation({
  name: 'resend_otp',
  admin: false,
  kind: 'mutation',
  description: 'Sends a fresh one-time code',
  input: ResendOTPRequest,
  output: MessageResponse,
  auth: 'public',
  handler: async (input, ctx) => {
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
