/**
 * Emails and texts of the account flows go through the message outbox (modules/messages): the operation
 * checks the redirect_uri, and a MessageJob is written in its transaction; the worker creates the link
 * token or the code and sends after the commit, with retries. Nothing is sent inside a request, so a slow
 * or failing mail or SMS server neither holds the database nor changes the answer (OWASP ASVS 2.5.x).
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { UserRow } from '../users/index.ts';
import { enqueueMessage, type LinkFlow } from '../messages/index.ts';
import { checkRedirectUri } from './redirect-uri.ts';

export interface LinkMail {
  event: LinkFlow;
  user: UserRow;
  /** The address the link goes to (the new one for update_email). */
  email: string;
  redirectUri?: string;
}

/** A link for an account the operation already holds (signup, update_email, invitations). */
export async function sendLinkMail(ctx: HandlerContext, mail: LinkMail): Promise<void> {
  const redirectUri = checkRedirectUri(ctx.deps.config, mail.redirectUri);
  await enqueueMessage(ctx, { channel: 'email', flow: mail.event, to: mail.email, userId: mail.user.id, redirectUri });
}

/** A six-digit code by SMS for phone verification (stored only as a sealed digest, by the worker). */
export async function sendPhoneCode(ctx: HandlerContext, user: UserRow, purpose: 'verify_otp' | 'forgot_password' = 'verify_otp'): Promise<void> {
  await enqueueMessage(ctx, { channel: 'sms', flow: purpose, to: user.phoneNumber!, userId: user.id });
}
