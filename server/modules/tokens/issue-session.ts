/**
 * Opens a login session: the session row, the cookie_session/cookie_session_domain pair
 * (docs/api-overview.md#authentication) and its tokens (docs/tokens.md): access and ID token always, a refresh
 * token (starting a new refresh family) only when the scope holds offline_access.
 */
import type { HandlerContext } from '../../ops/define.ts';
import { randomToken } from '../../kernel/crypto.ts';
import { sessionCookies } from '../../kernel/cookies.ts';
import type { UserRow } from '../users/index.ts';
import { deviceOf, openSession } from '../sessions/index.ts';
import { mintTokens, type TokenSet } from './mint-tokens.ts';
import { absoluteEndOf } from './lifetimes.ts';
import { AppError } from '../../kernel/errors.ts';

/** Scope of a login that asks for none (docs/api-overview.md#http-endpoints-outside-v1: default openid email profile). */
export const DEFAULT_SCOPE: readonly string[] = ['openid', 'email', 'profile'];
export const OFFLINE_ACCESS = 'offline_access';

export interface IssueSessionOptions {
  /** Roles of this session; the caller has checked them against the user's roles. */
  roles: string[];
  scope?: string[];
  /**
   * How the user authenticated: basic_auth, mobile_basic_auth, magic_link_login, a provider name, ...;
   * a second factor may be appended with '+' (basic_auth+totp) and shows in amr/acr of the ID token.
   */
  loginMethod: string;
  nonce?: string;
  /**
   * When the user authenticated, for a session refresh: the new session keeps its predecessor's, so the
   * absolute lifetime counts from the real login. Default: now (a login).
   */
  authTime?: Date;
}

/** Must run inside a transaction (em.transactional), which writes the rows queued here when it commits. */
export async function issueSession(ctx: HandlerContext, user: UserRow, options: IssueSessionOptions): Promise<TokenSet> {
  const { em } = ctx;
  // Outside a transaction nothing would ever write the rows queued here: a wiring mistake, refused loudly.
  if (!em.isInTransaction()) throw new Error('issueSession must run inside a transaction');
  const now = ctx.deps.clock.now();
  const scope = options.scope && options.scope.length > 0 ? [...new Set(options.scope)] : [...DEFAULT_SCOPE];
  const authTime = options.authTime ?? now;
  const notAfter = absoluteEndOf(authTime);
  if (notAfter.getTime() <= now.getTime()) throw AppError.unauthenticated('the session has reached its maximum lifetime: sign in again');
  // Expired sessions and token records are deleted in the background, not here (expiry-sweep.ts).
  const { token, session } = openSession(em, now, {
    userId: user.id,
    roles: options.roles,
    scope,
    loginMethod: options.loginMethod,
    authTime,
    notAfter,
    // The browser or app this login or refresh comes from, shown to the user (my_sessions).
    device: deviceOf(ctx.req),
  });
  const tokens = await mintTokens(ctx, em, {
    user,
    session,
    scope,
    nonce: options.nonce || randomToken(16),
    familyId: scope.includes(OFFLINE_ACCESS) ? randomToken(24) : null,
  });
  // No flush here: the caller's transaction flushes the session, its token records and whatever else the
  // caller adds (completeLogin's events) in one unit of work when it commits.
  // The cookie ends with its row: 24 h, or sooner near the absolute end.
  const maxAge = Math.ceil((session.expiresAt.getTime() - now.getTime()) / 1000);
  for (const cookie of sessionCookies(ctx.deps.config, token, maxAge)) ctx.effects.setCookie(cookie);
  return tokens;
}

/** A live session that passed the sign-in policy, and what a session opened from it keeps of it. */
export interface ApprovingSession {
  userId: string;
  roles: string[];
  loginMethod: string;
  authTime: Date;
}

/**
 * Opens a session for another device from a live session that passed the sign-in policy (the device
 * authorization grant, RFC 8628 section 3.3: the person approves on a browser already signed in). It keeps
 * that session's user, roles, login method and auth time, so the same absolute end; no cookie is set (the
 * device holds tokens only). The only other way a session opens besides issueSession, and called from one
 * place (test/accounts/sign-in-boundary.test.ts); the caller has checked that the approving session is live
 * and its user active.
 */
export function openSessionFromApproval(em: HandlerContext['em'], now: Date, approving: ApprovingSession, scope: string[]): ReturnType<typeof openSession> {
  const notAfter = absoluteEndOf(approving.authTime);
  if (notAfter.getTime() <= now.getTime()) throw AppError.unauthenticated('the session has reached its maximum lifetime: sign in again');
  return openSession(em, now, { ...approving, scope, notAfter });
}
