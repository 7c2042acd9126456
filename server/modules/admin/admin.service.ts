/**
 * Super-admin authentication (docs/api-overview.md#authentication): the x-service-admin-secret
 * header (unless --disable-admin-header-auth) or the HTTP-only `service-admin` cookie set by admin login.
 */
import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../../kernel/errors.ts';
import { hmacSha256Hex, randomToken } from '../../kernel/crypto.ts';
import type { Caller, OpContext } from '../../kernel/context.ts';
import type { CookieSpec } from '../../kernel/effects.ts';
import type { Config } from '../../config/flags.ts';
import type { Authenticator } from '../../ops/auth.ts';
import { AdminSession } from './admin-session.entity.ts';
import { checkAdminSecret } from './admin-secret-guard.ts';

export const ADMIN_COOKIE = 'service-admin';
/** docs/tokens.md#lifetimes: admin cookie 1 h, SameSite=Strict. */
export const ADMIN_SESSION_SECONDS = 3600;
/**
 * Absolute end of an admin session, counted from the login whatever the renewals (OWASP ASVS 3.3.4: an
 * absolute maximum session lifetime; 12 h is a working day for the most privileged credential).
 */
export const ADMIN_SESSION_ABSOLUTE_SECONDS = 12 * 3600;

/**
 * The row id of a cookie token: an HMAC keyed with the --admin-secret in force (domain-separated from any
 * other use of the secret). A restart with another secret finds no row for any old cookie.
 */
function adminSessionId(config: Config, token: string): string {
  return hmacSha256Hex(`portcullis/admin-session\0${config.adminSecret ?? ''}`, token);
}

function absoluteEndOf(loginAt: Date): number {
  return loginAt.getTime() + ADMIN_SESSION_ABSOLUTE_SECONDS * 1000;
}

function adminCookie(config: Config, value: string, maxAge: number): CookieSpec {
  return { name: ADMIN_COOKIE, value, maxAge, httpOnly: true, secure: config.adminCookieSecure, sameSite: 'Strict', path: '/' };
}

/** Starts a session (a login, or a renewal carrying the login's time): stores the token's HMAC and sets the cookie. */
export async function openAdminSession(ctx: OpContext, em: EntityManager, loginAt?: Date): Promise<void> {
  const token = randomToken(32);
  const now = ctx.deps.clock.now();
  const start = loginAt ?? now;
  const expiresAt = new Date(Math.min(now.getTime() + ADMIN_SESSION_SECONDS * 1000, absoluteEndOf(start)));
  em.create(AdminSession, { id: adminSessionId(ctx.deps.config, token), createdAt: now, loginAt: start, expiresAt });
  await em.flush();
  const maxAge = Math.ceil((expiresAt.getTime() - now.getTime()) / 1000);
  ctx.effects.setCookie(adminCookie(ctx.deps.config, token, maxAge));
}

/** Ends the presented session (if any); expired rows are the background sweep's (admin-session-sweep.ts). */
async function dropPresentedSession(ctx: OpContext, em: EntityManager): Promise<void> {
  const token = ctx.credentials.cookies[ADMIN_COOKIE];
  if (token) await em.nativeDelete(AdminSession, { id: adminSessionId(ctx.deps.config, token) });
}

export async function closeAdminSession(ctx: OpContext, em: EntityManager): Promise<void> {
  await dropPresentedSession(ctx, em);
  ctx.effects.clearCookie(adminCookie(ctx.deps.config, '', 0));
}

/**
 * Replaces the presented session with a fresh one: a sliding one-hour window that keeps the login's time,
 * so renewals never pass the absolute end. A header caller without a live cookie presented the secret
 * itself just now: that is a login.
 */
export async function renewAdminSession(ctx: OpContext, em: EntityManager): Promise<void> {
  const token = ctx.credentials.cookies[ADMIN_COOKIE];
  const live = token ? await liveSession(ctx, em, token) : null;
  if (live) {
    // The presented cookie ends RENEWAL_GRACE_SECONDS from now rather than at once: the console's other
    // requests already in flight carry it, and would fail between this answer and the browser storing the
    // new cookie. The grace is short and never extends the session (OWASP ASVS 3.3.1 still holds).
    const graceEnd = new Date(ctx.deps.clock.now().getTime() + RENEWAL_GRACE_SECONDS * 1000);
    if (live.expiresAt > graceEnd) live.expiresAt = graceEnd;
    await em.flush();
  } else {
    await dropPresentedSession(ctx, em);
  }
  await openAdminSession(ctx, em, live ? loginOf(live) : undefined);
}

/** Seconds a renewed admin cookie keeps working for requests sent before the renewal's answer arrived. */
export const RENEWAL_GRACE_SECONDS = 10;

type AdminSessionRow = InstanceType<typeof AdminSession.class>;

function loginOf(row: AdminSessionRow): Date {
  return row.loginAt ?? row.createdAt;
}

/** The row of a cookie token while it is inside both its sliding and its absolute window. */
async function liveSession(ctx: OpContext, em: EntityManager, token: string): Promise<AdminSessionRow | null> {
  const row = await em.findOne(AdminSession, { id: adminSessionId(ctx.deps.config, token) });
  const now = ctx.deps.clock.now().getTime();
  if (!row || row.expiresAt.getTime() <= now || absoluteEndOf(loginOf(row)) <= now) return null;
  return row;
}

async function cookieIsLive(ctx: OpContext, token: string): Promise<boolean> {
  return (await liveSession(ctx, ctx.deps.storage.fork(), token)) !== null;
}

/**
 * Resolves a super-admin caller from the header or the cookie, or refuses with 401. A header is a guess at
 * the secret like a login's and is limited and audited the same way (admin-secret-guard.ts); while its
 * address is held, a live cookie still answers (it proves an earlier login, not a guess), and without one the
 * refusal is the limit's 429.
 */
export const adminAuthenticator: Authenticator = async (ctx): Promise<Caller> => {
  const { config } = ctx.deps;
  const header = ctx.credentials.adminSecretHeader;
  let held: AppError | undefined;
  if (header !== undefined && !config.disableAdminHeaderAuth) {
    try {
      if (await checkAdminSecret(ctx, header, 'header')) return { kind: 'super_admin', via: 'header' };
    } catch (err) {
      if (!(err instanceof AppError) || err.kind !== 'too_many_requests') throw err;
      held = err;
    }
  }
  const token = ctx.credentials.cookies[ADMIN_COOKIE];
  if (token && (await cookieIsLive(ctx, token))) return { kind: 'super_admin', via: 'cookie' };
  throw held ?? AppError.unauthenticated('unauthorized: super-admin credentials required');
};

/** Whether the request carries super-admin credentials at all (header or cookie), valid or not. */
export function adminCredentialsPresented(ctx: OpContext): boolean {
  return ctx.credentials.adminSecretHeader !== undefined || ctx.credentials.cookies[ADMIN_COOKIE] !== undefined;
}
