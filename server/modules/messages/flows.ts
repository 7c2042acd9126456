/**
 * The messages the account flows send, by channel. Link flows are the email events that carry a link
 * (email/email-events.ts); code flows are the purposes of the texted one-time codes (otp.service.ts).
 */
import type { Logger } from 'pino';
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import { emailConfigurationProblem } from '../email/index.ts';
import { missingSmsFlags } from '../sms/index.ts';

export const LINK_FLOWS = ['basic_auth_signup', 'update_email', 'invite_member', 'magic_link_login', 'forgot_password'] as const;
export const CODE_FLOWS = ['verify_otp', 'forgot_password'] as const;

/**
 * A second factor's code (modules/mfa/otp-factor.ts), by email or SMS to the address or number of the
 * account the request authenticated; never started by a stranger.
 */
export const MFA_CODE_FLOW = 'mfa_otp';

/**
 * The code that confirms a lock_mfa (accounts/mfa-lock.ts): to the account's own proven address or number,
 * so that a password alone cannot lock its owner out.
 */
export const MFA_LOCK_FLOW = 'mfa_lock';

export type LinkFlow = (typeof LINK_FLOWS)[number];
export type CodeFlow = (typeof CODE_FLOWS)[number];
export type Channel = 'email' | 'sms';

/** Why this channel cannot deliver with these flags (the flags to set), or undefined when it can. */
export function channelProblem(config: Config, channel: Channel): string | undefined {
  if (channel === 'email') return emailConfigurationProblem(config);
  const missing = missingSmsFlags(config);
  return missing.length > 0 ? `sms is not configured: set ${missing.join(', ')}` : undefined;
}

/** What the person who started a flow reads when its channel is not configured: the service, not the flag. */
function unavailableToEndUsers(channel: Channel, flow: string): string {
  const by = channel === 'email' ? 'by email' : 'by text message';
  switch (flow) {
    case 'forgot_password':
      return `Password reset ${by} is not available on this server`;
    case 'magic_link_login':
      return 'Sign-in by emailed link is not available on this server';
    case 'basic_auth_signup':
    case 'update_email':
      return 'Email verification is not available on this server';
    case 'verify_otp':
      return 'Phone verification by text message is not available on this server';
    default:
      return `Codes ${by} are not available on this server`;
  }
}

/**
 * Refuses a channel this instance cannot deliver on. The answer depends on the flags only, so it is the
 * same for every address or number (no account enumeration, OWASP ASVS 2.5.x). End users read which
 * service is missing; the flags to set are for the operator, so they go to the log (and to the
 * administrator who invites members, the one flow only an administrator starts).
 */
export function requireChannel(config: Config, log: Pick<Logger, 'warn'>, channel: Channel, flow: string): void {
  const problem = channelProblem(config, channel);
  if (!problem) return;
  log.warn({ channel, flow }, problem);
  throw AppError.precondition(flow === 'invite_member' ? `invitations need outgoing email: ${problem}` : unavailableToEndUsers(channel, flow));
}
