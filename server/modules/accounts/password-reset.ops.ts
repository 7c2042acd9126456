/**
 * forgot_password and reset_password (docs/operations.md). Neither may tell a known address or phone
 * number from an unknown one (OWASP ASVS 2.5.x): forgot_password checks only the flags and the input and
 * queues the message, and the outbox worker decides whether an account gets it; reset_password by phone
 * looks the code up by the number first, so an unknown number fails exactly like a wrong code. A reset
 * ends every session and token of the user at once, and proves ownership of the address, so an unverified
 * email becomes verified. The set-password link an administrator copied from create_user
 * (verification/set-password-token.ts) is completed here too, but proves nothing: nobody mailed it. Any reset
 * replaces an administrator's initial password, so no password change is pending after it.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import {
  findUserByEmail, findUserById, markEmailVerified, markPhoneVerified, normalisePhoneNumber, requireEmail, requirePhoneNumber, type UserRow,
} from '../users/index.ts';
import { checkPasswordPolicy, hashPassword } from '../passwords/index.ts';
import {
  consumeOtp, consumeVerification, INVALID_OTP_MESSAGE, OTP_ATTEMPTS_EXHAUSTED_MESSAGE, SET_PASSWORD_IDENTIFIER,
} from '../verification/index.ts';
import { revokeAllForUser } from '../tokens/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import { ForgotPasswordRequest, ForgotPasswordResponse, ResetPasswordRequest } from './accounts.schema.ts';
import { checkRedirectUri } from './redirect-uri.ts';
import { audit } from '../audit/index.ts';

/**
 * Only a known number can hold a code, so "this code is used up" would reveal the account: every refusal
 * of the phone path is the one a wrong code gets (the code is retired all the same).
 */
function asWrongCode(err: unknown): never {
  if (err instanceof AppError && err.message === OTP_ATTEMPTS_EXHAUSTED_MESSAGE) throw AppError.invalid(INVALID_OTP_MESSAGE);
  throw err;
}

export const forgotPasswordOp = defineOperation({
  name: 'forgot_password',
  admin: false,
  kind: 'mutation',
  description: 'Starts a password reset: emails a reset link, or texts a code to a phone number',
  input: ForgotPasswordRequest,
  output: ForgotPasswordResponse,
  auth: 'public',
  handler: async (input, ctx) => {
    if (!input.email && !input.phone_number) throw AppError.invalid('email or phone_number is required');
    if (input.email) {
      const email = requireEmail(input.email);
      const redirectUri = checkRedirectUri(ctx.deps.config, input.redirect_uri);
      await enqueueMessage(ctx, { channel: 'email', flow: 'forgot_password', to: email, redirectUri });
      return { message: 'Please check your inbox! We have sent a password reset link.' };
    }
    await enqueueMessage(ctx, { channel: 'sms', flow: 'forgot_password', to: requirePhoneNumber(input.phone_number!) });
    return { message: 'Please check your phone for the reset code.', should_show_mobile_otp_screen: true };
  },
});

export const resetPasswordOp = defineOperation({
  name: 'reset_password',
  admin: false,
  kind: 'mutation',
  description: "Sets a new password with the emailed reset token (or an administrator's set-password link), or with the texted code and phone number",
  input: ResetPasswordRequest,
  output: MessageResponse,
  auth: 'public',
  // The OTP path counts failed attempts, which a rollback would undo; each step commits on its own.
  transaction: false,
  handler: async (input, ctx) => {
    const { config, clock } = ctx.deps;
    // Before the single-use token or code is spent, so only the number typed counts as the person's own
    // (docs/passwords.md#minimum-strength).
    await checkPasswordPolicy(config, input.password, input.confirm_password, [input.phone_number]);
    let user: UserRow | null;
    let via: 'email_link' | 'sms_code' | 'admin_link';
    if (input.token) {
      const request = await ctx.em.transactional((tx) =>
        consumeVerification(tx, clock, input.token!, ['forgot_password', 'invite_member', SET_PASSWORD_IDENTIFIER]),
      );
      user = request.userId ? await findUserById(ctx.em, request.userId) : await findUserByEmail(ctx.em, request.email);
      via = request.identifier === SET_PASSWORD_IDENTIFIER ? 'admin_link' : 'email_link';
    } else if (input.otp && input.phone_number) {
      // The code is found by the number before any account lookup: known and unknown numbers run the same
      // statements and get the same refusal.
      const phone = normalisePhoneNumber(input.phone_number);
      const otp = await consumeOtp(ctx.em, ctx.deps, { phone, purpose: 'forgot_password', code: input.otp }).catch(asWrongCode);
      const owner = otp.userId ? await findUserById(ctx.em, otp.userId) : null;
      if (!owner || owner.phoneNumber !== phone) throw AppError.invalid(INVALID_OTP_MESSAGE);
      user = owner;
      via = 'sms_code';
    } else {
      throw AppError.invalid('token, or otp with phone_number, is required');
    }
    if (!user) throw AppError.invalid('invalid or expired token');
    const passwordHash = await hashPassword(input.password);
    await ctx.em.transactional(async (tx) => {
      const managed = tx.merge(user);
      managed.passwordHash = passwordHash;
      managed.passwordChangeRequiredAt = null;
      // The mailed reset token proves the mailbox, the texted code the number (users/address-proof.ts); an
      // administrator's link proves neither (the administrator handed it over, nothing reached the address).
      if (via === 'email_link') markEmailVerified(managed, 'password_reset', clock.now());
      if (via === 'sms_code') markPhoneVerified(managed, 'password_reset', clock.now());
      if (!managed.signupMethods.split(',').includes('basic_auth') && via === 'email_link') managed.signupMethods += ',basic_auth';
      managed.updatedAt = clock.now();
      await revokeAllForUser(tx, clock, managed.id);
      await audit({ ...ctx, em: tx }, {
        action: 'user.password_reset',
        actor: { type: 'user', id: managed.id, email: managed.email },
        resourceType: 'user',
        resourceId: managed.id,
        metadata: { via },
      });
    });
    return { message: 'Password updated successfully.' };
  },
});

export const passwordResetOperations = [forgotPasswordOp, resetPasswordOp];
