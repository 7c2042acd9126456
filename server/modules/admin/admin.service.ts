/**
 * Super-admin authentication (specification part 5 "Super-admin credentials"): the x-service-admin-secret
 * header (unless --disable-admin-header-auth) or the HTTP-only `service-admin` cookie set by admin login.
 */
import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../../kernel/errors.ts';
import { constantTimeEqual, randomToken, sha256Hex } from '../../kernel/crypto.ts';
import type { Caller, OpContext } from '../../kernel/context.ts';
import type { CookieSpec } from '../../kernel/effects.ts';
import type { Config } from '../../config/flags.ts';
import type { Authenticator } from '../../ops/auth.ts';
import { AdminSession } from './admin-session.entity.ts';

export const ADMIN_COOKIE = 'service-admin';
/** reference.md "Lifetimes": admin cookie 1 h, SameSite=Strict. */
export const ADMIN_SESSION_SECONDS = 3600;

function adminCookie(config: Config, value: string, maxAge: number): CookieSpec {
  return { name: ADMIN_COOKIE, value, maxAge, httpOnly: true, secure: config.adminCookieSecure, sameSite: 'Strict', path: '/' };
}

export function isAdminSecret(config: Config, candidate: string): boolean {
  return constantTimeEqual(candidate, config.adminSecret ?? '');
}

/** Starts a session: stores the token's hash and sets the cookie. */
export async function openAdminSession(ctx: OpContext, em: EntityManager): Promise<void> {
  const token = randomToken(32);
  const now = ctx.deps.clock.now();
  em.create(AdminSession, {
    id: sha256Hex(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ADMIN_SESSION_SECONDS * 1000),
  });
  await em.flush();
  ctx.effects.setCookie(adminCookie(ctx.deps.config, token, ADMIN_SESSION_SECONDS));
}

/** Ends the presented session (if any) and sweeps expired rows so the table does not grow without bound. */
async function dropPresentedSession(ctx: OpContext, em: EntityManager): Promise<void> {
  const token = ctx.credentials.cookies[ADMIN_COOKIE];
  if (token) await em.nativeDelete(AdminSession, { id: sha256Hex(token) });
  await em.nativeDelete(AdminSession, { expiresAt: { $lt: ctx.deps.clock.now() } });
}

export async function closeAdminSession(ctx: OpContext, em: EntityManager): Promise<void> {
  await dropPresentedSession(ctx, em);
  ctx.effects.clearCookie(adminCookie(ctx.deps.config, '', 0));
}

/** Replaces the presented session with a fresh one (a sliding one-hour window). */
export async function renewAdminSession(ctx: OpContext, em: EntityManager): Promise<void> {
  await dropPresentedSession(ctx, em);
  await openAdminSession(ctx, em);
}

async function cookieIsLive(ctx: OpContext, token: string): Promise<boolean> {
  const em = ctx.deps.storage.fork();
  const row = await em.findOne(AdminSession, { id: sha256Hex(token) });
  return row !== null && row.expiresAt.getTime() > ctx.deps.clock.now().getTime();
}

/** Resolves a super-admin caller from the header or the cookie, or refuses with 401. */
export const adminAuthenticator: Authenticator = async (ctx): Promise<Caller> => {
  const { config } = ctx.deps;
  const header = ctx.credentials.adminSecretHeader;
  if (header !== undefined && !config.disableAdminHeaderAuth && isAdminSecret(config, header)) {
    return { kind: 'super_admin', via: 'header' };
  }
  const token = ctx.credentials.cookies[ADMIN_COOKIE];
  if (token && (await cookieIsLive(ctx, token))) return { kind: 'super_admin', via: 'cookie' };
  throw AppError.unauthenticated('unauthorized: super-admin credentials required');
};

/** Whether the request carries super-admin credentials at all (header or cookie), valid or not. */
export function adminCredentialsPresented(ctx: OpContext): boolean {
  return ctx.credentials.adminSecretHeader !== undefined || ctx.credentials.cookies[ADMIN_COOKIE] !== undefined;
}
