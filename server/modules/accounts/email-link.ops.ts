/**
 * The emailed-link flows (specification part 4.1): verify_email completes signup verification, magic-link
 * sign-in, an email change or an invitation; resend_verify_email sends a fresh link; magic_link_login starts
 * passwordless sign-in. Tokens are single use and stored only as hashes (issue 3 item 7).
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { findUserByEmail, findUserById, normaliseEmail, rolesForLogin, rolesForSignup, type UserRow } from '../users/index.ts';
import { consumeVerification } from '../verification/index.ts';
import { isEmailEvent } from '../email/index.ts';
import { AuthResponse, MagicLinkLoginRequest, ResendVerifyEmailRequest, VerifyEmailRequest } from './accounts.schema.ts';
import { completeLogin } from './complete-login.ts';
import { createAccount } from './create-account.ts';
import { sendLinkMail } from './account-mail.ts';

/** Identifiers whose link signs the user in through verify_email. */
const VERIFY_EMAIL_IDENTIFIERS = ['basic_auth_signup', 'magic_link_login', 'update_email', 'invite_member'] as const;

async function verifiedUser(ctx: HandlerContext, userId: string | null, email: string): Promise<UserRow> {
  const user = (userId ? await findUserById(ctx.em, userId) : null) ?? (await findUserByEmail(ctx.em, email));
  if (!user || user.email !== email) throw AppError.invalid('invalid or expired token');
  if (user.revokedAt) throw AppError.forbidden('user access has been revoked');
  return user;
}

export const verifyEmailOp = defineOperation({
  name: 'verify_email',
  admin: false,
  kind: 'mutation',
  description: 'Completes email verification (or a magic-link sign-in) with the emailed token and signs the user in',
  input: VerifyEmailRequest,
  output: AuthResponse,
  auth: 'public',
  handler: async (input, ctx) => {
    const request = await consumeVerification(ctx.em, ctx.deps.clock, input.token, VERIFY_EMAIL_IDENTIFIERS);
    const user = await verifiedUser(ctx, request.userId ?? null, request.email);
    const firstVerification = !user.emailVerifiedAt;
    if (firstVerification) user.emailVerifiedAt = ctx.deps.clock.now();
    user.updatedAt = ctx.deps.clock.now();
    const loginMethod = request.identifier === 'magic_link_login' ? 'magic_link_login' : 'basic_auth';
    return completeLogin(ctx, user, {
      roles: rolesForLogin(user),
      scope: [],
      loginMethod,
      nonce: request.nonce,
      message: 'Email verified successfully.',
      // reference.md "Events": the first email verification fires signup and login.
      events: firstVerification ? ['user.signup'] : [],
    });
  },
});

export const resendVerifyEmailOp = defineOperation({
  name: 'resend_verify_email',
  admin: false,
  kind: 'mutation',
  description: 'Sends a fresh verification link',
  input: ResendVerifyEmailRequest,
  output: MessageResponse,
  auth: 'public',
  handler: async (input, ctx) => {
    if (!isEmailEvent(input.identifier) || input.identifier === 'verify_otp' || input.identifier === 'forgot_password') {
      throw AppError.invalid(`invalid identifier: ${input.identifier.slice(0, 64)}`);
    }
    const user = await findUserByEmail(ctx.em, input.email);
    // Answer the same whether or not the address is known, so the call cannot enumerate accounts.
    if (user && !(input.identifier === 'basic_auth_signup' && user.emailVerifiedAt)) {
      await sendLinkMail(ctx, { event: input.identifier, user, email: user.email! });
    }
    return { message: 'Verification email has been sent. Please check your inbox' };
  },
});

export const magicLinkLoginOp = defineOperation({
  name: 'magic_link_login',
  admin: false,
  kind: 'mutation',
  description: 'Starts passwordless sign-in: emails a single-use link',
  input: MagicLinkLoginRequest,
  output: MessageResponse,
  auth: 'public',
  handler: async (input, ctx) => {
    const { config } = ctx.deps;
    if (!config.enableMagicLinkLogin) throw AppError.precondition('magic link login is disabled for this instance');
    let user = await findUserByEmail(ctx.em, normaliseEmail(input.email));
    if (!user) {
      if (!config.enableSignup) throw AppError.precondition('signup is disabled for this instance');
      user = await createAccount(ctx, { email: input.email, signupMethods: ['magic_link_login'], roles: rolesForSignup(config, input.roles) });
    } else if (input.roles?.length) {
      rolesForLogin(user, input.roles);
    }
    if (user.revokedAt) throw AppError.forbidden('user access has been revoked');
    await sendLinkMail(ctx, { event: 'magic_link_login', user, email: user.email!, redirectUri: input.redirect_uri });
    return { message: 'Magic Link has been sent to your email. Please check your inbox!' };
  },
});

export const emailLinkOperations = [verifyEmailOp, resendVerifyEmailOp, magicLinkLoginOp];
