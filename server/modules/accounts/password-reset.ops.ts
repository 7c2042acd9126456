/**
 * forgot_password and reset_password (specification part 4.1). The answer to forgot_password is the same
 * whether or not the account exists (no enumeration). A reset ends every session and token of the user at
 * once (issue 3 item 3), and proves ownership of the address, so an unverified email becomes verified.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { findUserByEmail, findUserById, findUserByPhone, type UserRow } from '../users/index.ts';
import { checkPasswordPolicy, hashPassword } from '../passwords/index.ts';
import { consumeOtp, consumeVerification } from '../verification/index.ts';
import { revokeAllForUser } from '../tokens/index.ts';
import { ForgotPasswordRequest, ForgotPasswordResponse, ResetPasswordRequest } from './accounts.schema.ts';
import { sendLinkMail, sendPhoneCode } from './account-mail.ts';

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
      const user = await findUserByEmail(ctx.em, input.email);
      if (user && !user.revokedAt) {
        await sendLinkMail(ctx, { event: 'forgot_password', user, email: user.email!, redirectUri: input.redirect_uri });
      }
      return { message: 'Please check your inbox! We have sent a password reset link.' };
    }
    const user = await findUserByPhone(ctx.em, input.phone_number!);
    if (user && !user.revokedAt) await sendPhoneCode(ctx, user, 'forgot_password');
    return { message: 'Please check your phone for the reset code.', should_show_mobile_otp_screen: true };
  },
});

export const resetPasswordOp = defineOperation({
  name: 'reset_password',
  admin: false,
  kind: 'mutation',
  description: 'Sets a new password with the emailed reset token, or with the texted code and phone number',
  input: ResetPasswordRequest,
  output: MessageResponse,
  auth: 'public',
  // The OTP path counts failed attempts, which a rollback would undo; each step commits on its own.
  transaction: false,
  handler: async (input, ctx) => {
    const { config, clock } = ctx.deps;
    checkPasswordPolicy(config, input.password, input.confirm_password);
    let user: UserRow | null;
    let viaEmail = false;
    if (input.token) {
      const request = await ctx.em.transactional((tx) => consumeVerification(tx, clock, input.token!, ['forgot_password', 'invite_member']));
      user = request.userId ? await findUserById(ctx.em, request.userId) : await findUserByEmail(ctx.em, request.email);
      viaEmail = true;
    } else if (input.otp && input.phone_number) {
      const phoneUser = await findUserByPhone(ctx.em, input.phone_number);
      if (!phoneUser) throw AppError.invalid('invalid or expired code');
      await consumeOtp(ctx.em, clock, ctx.deps.sealer, { userId: phoneUser.id, phone: phoneUser.phoneNumber, purpose: 'forgot_password', code: input.otp });
      user = phoneUser;
    } else {
      throw AppError.invalid('token, or otp with phone_number, is required');
    }
    if (!user) throw AppError.invalid('invalid or expired token');
    const passwordHash = await hashPassword(input.password);
    await ctx.em.transactional(async (tx) => {
      const managed = tx.merge(user);
      managed.passwordHash = passwordHash;
      if (viaEmail && !managed.emailVerifiedAt) managed.emailVerifiedAt = clock.now();
      if (!viaEmail && !managed.phoneNumberVerifiedAt) managed.phoneNumberVerifiedAt = clock.now();
      if (!managed.signupMethods.split(',').includes('basic_auth') && viaEmail) managed.signupMethods += ',basic_auth';
      managed.updatedAt = clock.now();
      await revokeAllForUser(tx, clock, managed.id);
    });
    return { message: 'Password updated successfully.' };
  },
});

export const passwordResetOperations = [forgotPasswordOp, resetPasswordOp];
