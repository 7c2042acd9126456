/**
 * Emails of the account flows: a fresh single-use token (stored as a hash), a link built from --url only
 * (reference.md "Security lessons": never from request headers) that carries the caller's redirect_uri, and
 * the event's template; and phone codes by SMS. Sent inside the operation's transaction, so a failed send leaves no orphan token.
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { UserRow } from '../users/user.entity.ts';
import { toPublicUser } from '../users/user.schema.ts';
import { createOtp, createVerification } from '../verification/index.ts';
import { createSmsProvider } from '../sms/index.ts';
import { checkRedirectUri } from './redirect-uri.ts';
import { emailLinkFor, sendTemplatedEmail, type EmailEvent } from '../email/index.ts';

/** Link lifetimes: verification and invitations a day, sign-in and reset links shorter. */
const TTL_SECONDS: Record<Exclude<EmailEvent, 'verify_otp'>, number> = {
  basic_auth_signup: 24 * 3600,
  update_email: 24 * 3600,
  invite_member: 7 * 24 * 3600,
  magic_link_login: 15 * 60,
  forgot_password: 30 * 60,
};

export interface LinkMail {
  event: Exclude<EmailEvent, 'verify_otp'>;
  user: UserRow;
  /** The address the link goes to (the new one for update_email). */
  email: string;
  redirectUri?: string;
}

export async function sendLinkMail(ctx: HandlerContext, mail: LinkMail): Promise<void> {
  const redirectUri = checkRedirectUri(ctx.deps.config, mail.redirectUri);
  const token = await createVerification(ctx.em, ctx.deps.clock, {
    identifier: mail.event,
    email: mail.email,
    userId: mail.user.id,
    redirectUri: redirectUri ?? null,
    ttlSeconds: TTL_SECONDS[mail.event],
  });
  const url = emailLinkFor(ctx.deps.config, mail.event, { token, redirectUri });
  await sendTemplatedEmail(ctx.deps, { event: mail.event, to: mail.email, user: toPublicUser(mail.user), url, em: ctx.em });
}

/** A six-digit code by SMS for phone verification or reset (stored only as a keyed hash). */
export async function sendPhoneCode(ctx: HandlerContext, user: UserRow, purpose = 'verify_otp'): Promise<void> {
  const code = await createOtp(ctx.em, ctx.deps.clock, ctx.deps.sealer, { userId: user.id, phone: user.phoneNumber, purpose });
  const sender = createSmsProvider(ctx.deps.config, ctx.deps.logger);
  await sender.send(user.phoneNumber!, `Your ${ctx.deps.config.organizationName} code is ${code}`);
}
