/**
 * Step-up: a recent authentication before what would let whoever holds a session keep the account for good
 * (README "Security"; the idea of OAuth 2.0 Step-Up Authentication, RFC 9470; OWASP ASVS 3.7.1;
 * NIST SP 800-63B section 7.2, reauthentication): adding a credential or factor (a passkey, an authenticator
 * app, email or SMS codes), changing the email, phone number or password, and deactivating the account. A
 * stolen session or an unlocked browser then cannot add the thief's passkey or move the recovery channels.
 *
 * Recent means the sign-in that opened the caller's session (its auth_time, carried unchanged across session
 * refreshes: sessions/ authTimeOf) is at most STEP_UP_SECONDS old. An operation that takes the current
 * password accepts that instead (update_profile's old_password). A user in a sign-in in progress (the `mfa`
 * cookie of a first-time offer) has just proven the first factor, and that cookie lives no longer than this
 * window, so it needs nothing more.
 *
 * The refusal is permission_denied, not unauthenticated: the session is valid for everything else, and a
 * client must not drop it; the message says to sign in again and how recent the sign-in must be.
 */
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { authTimeOf, findSession } from '../sessions/index.ts';

export const STEP_UP_SECONDS = 5 * 60;

/** Whether the caller signed in at most STEP_UP_SECONDS ago (or is in the middle of a sign-in). */
export async function recentlyAuthenticated(ctx: HandlerContext): Promise<boolean> {
  const { caller } = ctx;
  if (caller.kind === 'mfa') return true;
  if (caller.kind !== 'user' || !caller.sessionId) return false;
  const session = await findSession(ctx.em, caller.sessionId);
  if (!session) return false;
  const ageSeconds = (ctx.deps.clock.now().getTime() - authTimeOf(session).getTime()) / 1000;
  return ageSeconds <= STEP_UP_SECONDS;
}

/**
 * Refuses `action` (e.g. "add a passkey") unless the caller signed in recently. `reason` replaces the
 * default explanation where the operation has more to say (an account without a password).
 */
export async function requireRecentAuthentication(ctx: HandlerContext, action: string, reason?: string): Promise<void> {
  if (await recentlyAuthenticated(ctx)) return;
  const minutes = STEP_UP_SECONDS / 60;
  throw AppError.forbidden(`sign in again to ${action}: ${reason ?? `this needs a sign-in within the last ${minutes} minutes`}`);
}
