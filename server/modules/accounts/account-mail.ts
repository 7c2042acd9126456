/**
 * Emails of the account flows: a fresh single-use token (stored as a hash), a link built from --url only
 * (reference.md "Security lessons": never from request headers) that carries the caller's redirect_uri, and
 * the event's template; and phone codes by SMS. The token or code is stored in the operation's transaction;
 * the message leaves after it commits (ctx.afterCommit), so a slow mail or SMS server never holds the
 * database. A send that fails then fails the call, and the user asks again (resend_verify_email,
 * resend_otp, forgot_password), which replaces nothing but adds a fresh link.
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { UserRow } from '../users/user.entity.ts';
import { toPublicUser } from '../users/user.schema.ts';
import { storeOtpSms, storeVerificationEmail } from '../verification/index.ts';
import type { EmailEvent } from '../email/index.ts';
import { checkRedirectUri } from './redirect-uri.ts';

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
  const send = await storeVerificationEmail(ctx.em, ctx.deps, {
    event: mail.event,
    to: mail.email,
    user: toPublicUser(mail.user),
    userId: mail.user.id,
    redirectUri: redirectUri ?? null,
    ttlSeconds: TTL_SECONDS[mail.event],
  });
  ctx.afterCommit(send);
}

/** A six-digit code by SMS for phone verification or reset (stored only as a keyed hash). */
export async function sendPhoneCode(ctx: HandlerContext, user: UserRow, purpose = 'verify_otp'): Promise<void> {
  const send = await storeOtpSms(ctx.em, ctx.deps, { userId: user.id, phone: user.phoneNumber!, purpose });
  ctx.afterCommit(send);
}
