/**
 * The one sign-in policy point (docs/identity-boundary.md). Every first factor (sign-in-strategies.ts:
 * password, emailed link, texted code, signup, social, organization SSO, passkey) hands its user here, and
 * only here does a session come to exist. In this order:
 *
 * 1. account state: deactivated, access revoked, second factor locked (lock_mfa), the organization the
 *    sign-in goes through disabled, an address the instance requires verified before a password or
 *    passkey sign-in (--enable-email-verification, --enable-phone-verification), and a password sign-in with
 *    an administrator's initial password, which must be replaced first (change_initial_password);
 * 2. the second-factor gate (mfa-gate.ts), unless the first factor was itself multi-factor (a passkey with
 *    user verification, NIST SP 800-63B 5.1.9);
 * 3. the events (user.signup for a new account, user.login) and the audit entry;
 * 4. the session and its tokens (complete-login.ts, which nothing else imports).
 *
 * The same holds when a sign-in that waited at the gate completes (finishSecondFactor) and when a session
 * is renewed from its cookie (renewSession): the account is checked again each time, so a lock or a
 * revocation between two steps is not slipped past. A refusal is audited as `user.login_failed` with its
 * reason after the refused transaction has rolled back (AppError.afterRollback).
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { inTransaction } from '../../kernel/context.ts';
import { mfaCookie } from '../../kernel/cookies.ts';
import type { UserRow } from '../users/index.ts';
import { findUserById, toPublicUser } from '../users/index.ts';
import { recordEvent } from '../events/index.ts';
import { auditNow } from '../audit/index.ts';
import { MFA_SESSION_REFUSAL, type MfaChallengeRow } from '../mfa/index.ts';
import type { AuthResponse } from './accounts.schema.ts';
import { completeLogin } from './complete-login.ts';
import { MFA_LOCKED_MESSAGE, secondFactorChallenge } from './mfa-gate.ts';
import { SIGN_IN_STRATEGIES, type SignInStrategyName } from './sign-in-strategies.ts';

type Answer = Static<typeof AuthResponse>;

export const ACCESS_REVOKED_MESSAGE = 'user access has been revoked';
export const DEACTIVATED_MESSAGE = 'this account has been deactivated';
export const ORGANIZATION_DISABLED_MESSAGE = "the organization's sign-in is disabled";
export const EMAIL_NOT_VERIFIED_MESSAGE = 'email not verified: check your inbox for the verification link';
export const PHONE_NOT_VERIFIED_MESSAGE = 'phone number not verified';
/**
 * The answer to a right initial password (create_user): no session, and what to do instead. Clients (the
 * login UI) recognise it by FAILED_PRECONDITION and the words "password change required".
 */
export const PASSWORD_CHANGE_REQUIRED_MESSAGE =
  'password change required: this password was set by an administrator; choose a new one with change_initial_password';

export interface SignInAttempt {
  strategy: SignInStrategyName;
  user: UserRow;
  /** How the user authenticated, as the tokens name it (tokens/claims.ts amrFor): basic_auth, a provider, ... */
  loginMethod: string;
  /** Roles of the session; the caller has checked them against the user's roles. */
  roles: string[];
  scope: string[];
  nonce?: string;
  /** The AuthResponse message of a completed sign-in. */
  message: string;
  /** The account was made by this sign-in (or its address first verified): user.signup is recorded. */
  signup?: boolean;
  /** The organization a sign-in goes through (organization SSO): it must be enabled. */
  organization?: { id: string; enabled: boolean };
}

export interface SignInOutcome {
  response: Answer;
  /** True when the sign-in waits at the second-factor gate (the `mfa` cookie is set, no token issued). */
  gated: boolean;
}

interface Refusal {
  error: AppError;
  reason: string;
}

/** What the instance requires verified before this strategy may sign in, and whether the account has it. */
function unverifiedContact(ctx: HandlerContext, user: UserRow, strategy: SignInStrategyName): Refusal | undefined {
  if (!SIGN_IN_STRATEGIES[strategy].needsVerifiedContact) return undefined;
  const { config } = ctx.deps;
  // A password names the address it was typed with; a passkey stands for the account's own identifier.
  const byPhone = strategy === 'phone_password' || (strategy === 'passkey' && !user.email);
  if (!byPhone && config.enableEmailVerification && user.email && !user.emailVerifiedAt) {
    return { error: AppError.precondition(EMAIL_NOT_VERIFIED_MESSAGE), reason: 'email_not_verified' };
  }
  if (byPhone && config.enablePhoneVerification && user.phoneNumber && !user.phoneNumberVerifiedAt) {
    return { error: AppError.precondition(PHONE_NOT_VERIFIED_MESSAGE), reason: 'phone_not_verified' };
  }
  return undefined;
}

/**
 * Step 1: the first reason this account may not sign in now, if any. `attempt` is the first factor's, when
 * there is one (a completed gate or a renewal checks the account alone).
 */
function accountStateRefusal(ctx: HandlerContext, user: UserRow, attempt?: Pick<SignInAttempt, 'strategy' | 'organization'>): Refusal | undefined {
  const organization = attempt?.organization;
  if (user.deactivatedAt) return { error: AppError.forbidden(DEACTIVATED_MESSAGE), reason: 'deactivated' };
  if (user.revokedAt) return { error: AppError.forbidden(ACCESS_REVOKED_MESSAGE), reason: 'access_revoked' };
  // A lock stops every way in, a passkey included: the person reported a factor lost, and until an
  // administrator resets the account nobody can tell who holds it.
  if (user.mfaLockedAt) return { error: AppError.forbidden(MFA_LOCKED_MESSAGE), reason: 'mfa_locked' };
  if (organization && !organization.enabled) return { error: AppError.forbidden(ORGANIZATION_DISABLED_MESSAGE), reason: 'organization_disabled' };
  return attempt ? unverifiedContact(ctx, user, attempt.strategy) : undefined;
}

/**
 * The account checks of step 1 for a first factor, as an audited refusal, for a flow that must know them
 * before it changes anything (change_initial_password replaces the password only for an account that may
 * sign in). signIn runs them again.
 */
export function assertMaySignIn(ctx: HandlerContext, user: UserRow, attempt: Pick<SignInAttempt, 'strategy' | 'loginMethod'>): void {
  const refusal = accountStateRefusal(ctx, user, attempt);
  if (refusal) throw refuse(ctx, user, attempt.loginMethod, refusal);
}

/**
 * A password an administrator chose is known to someone besides its holder: it proves the holder only once
 * they replaced it (OWASP ASVS 2.1.x; NIST SP 800-63B 5.1.1.2 on passwords chosen by the service). The
 * refusal comes only after the right password, so it tells nothing to someone without it.
 */
function initialPasswordRefusal(user: UserRow, strategy: SignInStrategyName): Refusal | undefined {
  if (!SIGN_IN_STRATEGIES[strategy].storedPassword || !user.passwordChangeRequiredAt) return undefined;
  return { error: AppError.precondition(PASSWORD_CHANGE_REQUIRED_MESSAGE), reason: 'password_change_required' };
}

/** The refusal, with its audit entry written once the refused transaction has rolled back. */
function refuse(ctx: HandlerContext, user: UserRow, loginMethod: string, refusal: Refusal): AppError {
  const { error } = refusal;
  error.afterRollback = () =>
    auditNow(ctx, {
      action: 'user.login_failed',
      actor: { type: 'user', id: user.id, email: user.email },
      resourceType: 'user',
      resourceId: user.id,
      metadata: { reason: refusal.reason, login_method: loginMethod },
    });
  return error;
}

/** Runs `work` in the caller's transaction, or in a new one (issueSession writes only inside one). */
function inOneTransaction<T>(ctx: HandlerContext, work: (tx: HandlerContext) => Promise<T>): Promise<T> {
  if (inTransaction(ctx)) return work(ctx);
  return ctx.em.transactional((em) => work({ ...ctx, em }));
}

/** Signs `attempt.user` in by a first factor: the account checks, the gate, then the session. */
export async function signIn(ctx: HandlerContext, attempt: SignInAttempt): Promise<SignInOutcome> {
  const { user } = attempt;
  const refusal = accountStateRefusal(ctx, user, attempt) ?? initialPasswordRefusal(user, attempt.strategy);
  if (refusal) throw refuse(ctx, user, attempt.loginMethod, refusal);
  if (!SIGN_IN_STRATEGIES[attempt.strategy].multiFactor) {
    const gate = await secondFactorChallenge(ctx, user, { roles: attempt.roles, scope: attempt.scope, loginMethod: attempt.loginMethod, nonce: attempt.nonce });
    if (gate) {
      if (attempt.signup) recordEvent(ctx.em, 'user.signup', { user: toPublicUser(user), auth_recipe: attempt.loginMethod }, ctx.deps.clock);
      return { response: gate, gated: true };
    }
  }
  const response = await inOneTransaction(ctx, (tx) =>
    completeLogin(tx, user, {
      roles: attempt.roles,
      scope: attempt.scope,
      loginMethod: attempt.loginMethod,
      nonce: attempt.nonce,
      message: attempt.message,
      events: attempt.signup ? ['user.signup'] : [],
    }),
  );
  return { response, gated: false };
}

/**
 * The end of a sign-in that waited at the gate (docs/identity-boundary.md): once the second factor passed, or
 * the offer was answered by a new factor or declined, the login the first step decided (roles, scope,
 * method, nonce) is issued, with the second factor named in its method (`amr`, tokens/claims.ts), and the
 * `mfa` cookie is cleared. The caller has already removed the challenge row (compare-and-delete in
 * modules/mfa/mfa-challenge.ts), so one cookie completes one sign-in. `factor` is undefined when an offer
 * was declined.
 */
export async function finishSecondFactor(ctx: HandlerContext, challenge: MfaChallengeRow, factor: string | undefined, message = 'Logged in successfully'): Promise<Answer> {
  const user = await findUserById(ctx.em, challenge.userId, { includeDeactivated: true });
  if (!user || user.deactivatedAt) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  const loginMethod = factor ? `${challenge.loginMethod}+${factor}` : challenge.loginMethod;
  const refusal = accountStateRefusal(ctx, user);
  if (refusal) throw refuse(ctx, user, loginMethod, refusal);
  ctx.effects.setCookie(mfaCookie(ctx.deps.config, '', 0));
  return inOneTransaction(ctx, (tx) =>
    completeLogin(tx, tx.em.merge(user), {
      roles: challenge.roles,
      scope: challenge.scope,
      loginMethod,
      nonce: challenge.nonce ?? undefined,
      message,
    }),
  );
}

export interface SessionRenewal {
  roles: string[];
  scope: string[];
  loginMethod: string;
  /** The original login's time: renewing does not restart the absolute lifetime (OWASP ASVS 3.3.4). */
  authTime: Date;
}

/**
 * A session renewed from its cookie (the `session` operation). Not a new sign-in (no gate, no user.login
 * audit entry), but the account is checked as at sign-in: a lock or a revocation ends the renewals too.
 * Must run inside the caller's transaction, which has already ended the old session.
 */
export async function renewSession(ctx: HandlerContext, user: UserRow, renewal: SessionRenewal): Promise<Answer> {
  const refusal = accountStateRefusal(ctx, user);
  if (refusal) throw refusal.error;
  return completeLogin(ctx, user, { ...renewal, message: 'Session refreshed successfully' });
}
