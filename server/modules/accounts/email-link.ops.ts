/**
 * The emailed-link flows (docs/operations.md): verify_email completes signup verification, magic-link
 * sign-in, an email change or an invitation; resend_verify_email sends a fresh link; magic_link_login starts
 * passwordless sign-in. Tokens are single use and stored only as hashes.
 *
 * resend_verify_email and magic_link_login answer the same for every address (OWASP ASVS 2.5.x, no account
 * enumeration): they check only the flags and the input, then queue a message; the outbox worker decides
 * whether the address gets a link (known, not revoked, not verified yet) and creates a magic-link account.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Config } from '../../config/flags.ts';
import { findUserByEmail, findUserById, markEmailVerified, requireEmail, rolesForLogin, type UserRow } from '../users/index.ts';
import { consumeVerification } from '../verification/index.ts';
import { enqueueMessage, type LinkFlow } from '../messages/index.ts';
import { AuthResponse, MagicLinkLoginRequest, ResendVerifyEmailRequest, VerifyEmailRequest } from './accounts.schema.ts';
import { signIn } from './sign-in-policy.ts';
import { checkRedirectUri } from './redirect-uri.ts';

/** Identifiers whose link signs the user in through verify_email. */
const VERIFY_EMAIL_IDENTIFIERS = ['basic_auth_signup', 'magic_link_login', 'update_email', 'invite_member'] as const;

async function verifiedUser(ctx: HandlerContext, userId: string | null, email: string): Promise<UserRow> {
  const user = (userId ? await findUserById(ctx.em, userId) : null) ?? (await findUserByEmail(ctx.em, email));
  if (!user || user.email !== email) throw AppError.invalid('invalid or expired token');
  return user;
}

/**
 * The identifiers resend_verify_email serves, each only while its flag is on: a link of a disabled flow
 * must not be obtainable through the back door. Invitations, reset links and codes have their own
 * operations. Decided from the flags alone, before any lookup, so the answer is the same for every address.
 */
function resendableFlow(config: Config, identifier: string): LinkFlow {
  if (identifier === 'basic_auth_signup' || identifier === 'update_email') {
    if (!config.enableEmailVerification) throw AppError.precondition('email verification is disabled for this instance');
    return identifier;
  }
  if (identifier === 'magic_link_login') {
    if (!config.enableMagicLinkLogin) throw AppError.precondition('magic link login is disabled for this instance');
    return identifier;
  }
  throw AppError.invalid(`invalid identifier: ${identifier.slice(0, 64)}`);
}

/** Roles a magic link may ask for: names from --roles (whether the account may hold them is the worker's check). */
function configuredRoles(config: Pick<Config, 'roles'>, asked: readonly string[] | undefined): string[] | undefined {
  for (const role of asked ?? []) {
    if (!config.roles.includes(role.trim())) throw AppError.invalid(`role ${JSON.stringify(role.slice(0, 64))} is not one of the configured roles`);
  }
  return asked?.length ? [...asked] : undefined;
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
    // Following the mailed link proves the mailbox (users/address-proof.ts); it upgrades an unproven mark too.
    markEmailVerified(user, 'link', ctx.deps.clock.now());
    user.updatedAt = ctx.deps.clock.now();
    // The user proved control of the mailbox, not a password: RFC 8176 section 2 has no `pwd` here
    // (claims.ts maps both methods to `otp`, the single-use secret delivered out of band).
    const loginMethod = request.identifier === 'magic_link_login' ? 'magic_link_login' : 'verify_email';
    const outcome = await signIn(ctx, {
      strategy: 'email_link',
      user,
      loginMethod,
      roles: rolesForLogin(user),
      scope: [],
      nonce: request.nonce ?? undefined,
      message: 'Email verified successfully.',
      // docs/events.md: the first email verification fires signup and login.
      signup: firstVerification,
    });
    return outcome.response;
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
    const flow = resendableFlow(ctx.deps.config, input.identifier);
    await enqueueMessage(ctx, { channel: 'email', flow, to: requireEmail(input.email) });
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
    const email = requireEmail(input.email);
    const redirectUri = checkRedirectUri(config, input.redirect_uri);
    const roles = configuredRoles(config, input.roles);
    // Unknown address, signup disabled, revoked account, roles the account lacks: decided by the worker,
    // which then sends nothing. The caller always gets this same answer.
    await enqueueMessage(ctx, { channel: 'email', flow: 'magic_link_login', to: email, redirectUri, options: { createAccount: true, roles } });
    return { message: 'Magic Link has been sent to your email. Please check your inbox!' };
  },
});

export const emailLinkOperations = [verifyEmailOp, resendVerifyEmailOp, magicLinkLoginOp];
