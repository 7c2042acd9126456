/**
 * The messages the account flows send, by channel. Link flows are the email events that carry a link
 * (email/email-events.ts); code flows are the purposes of the texted one-time codes (otp.service.ts).
 */
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

/**
 * Refuses a channel this instance cannot deliver on. The answer depends on the flags only, so it is the
 * same for every address or number (no account enumeration, OWASP ASVS 2.5.x / specification part 4.1).
 */
export function requireChannel(config: Config, channel: Channel): void {
  if (channel === 'email') {
    const problem = emailConfigurationProblem(config);
    if (problem) throw AppError.precondition(problem);
    return;
  }
  const missing = missingSmsFlags(config);
  if (missing.length > 0) throw AppError.precondition(`sms is not configured: set ${missing.join(', ')}`);
}
