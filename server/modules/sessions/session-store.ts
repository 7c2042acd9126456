/**
 * Session rows: open, look up by the presented token, revoke. Nothing here issues tokens; expired rows are
 * deleted by the background sweep (tokens/expiry-sweep.ts).
 */
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { SESSION_COOKIE_SECONDS } from '../../kernel/cookies.ts';
import { defineHook } from '../../kernel/hooks.ts';
import { Session, type SessionRow } from './session.entity.ts';
import type { SessionDevice } from './session-activity.ts';

export interface NewSession {
  userId: string;
  roles: string[];
  scope: string[];
  loginMethod: string;
  /** When the user authenticated; a refreshed session carries its predecessor's (default: now). */
  authTime?: Date;
  /** The absolute end of the login (tokens/lifetimes.ts): the row never outlives it, whatever the cookie's 24 h. */
  notAfter?: Date;
  /** The device the session is opened from (session-activity.ts deviceOf); none for a device grant's session. */
  device?: SessionDevice;
}

/** Queues a new session; answers the raw token (for the cookies only) and the row. The caller flushes. */
export function openSession(em: EntityManager, now: Date, input: NewSession): { token: string; session: SessionRow } {
  const token = randomToken(32);
  const cookieEnd = now.getTime() + SESSION_COOKIE_SECONDS * 1000;
  const session = em.create(Session, {
    id: sha256Hex(token),
    userId: input.userId,
    roles: input.roles,
    scope: input.scope,
    loginMethod: input.loginMethod,
    createdAt: now,
    authTime: input.authTime ?? now,
    expiresAt: new Date(input.notAfter ? Math.min(cookieEnd, input.notAfter.getTime()) : cookieEnd),
    revokedAt: null,
    userAgent: input.device?.userAgent ?? null,
    ipAddress: input.device?.ipAddress ?? null,
    lastUsedAt: now,
  });
  return { token, session };
}

export function findSession(em: EntityManager, sessionId: string): Promise<SessionRow | null> {
  return em.findOne(Session, { id: sessionId });
}

/** A session that still opens: neither revoked nor expired. */
export function sessionIsLive(session: SessionRow | null, now: Date): session is SessionRow {
  return session !== null && session.revokedAt == null && session.expiresAt.getTime() > now.getTime();
}

/** The session a raw token opens, when it is neither revoked nor expired. */
export async function findLiveSessionByToken(em: EntityManager, token: string, now: Date): Promise<SessionRow | null> {
  if (!token) return null;
  const session = await em.findOne(Session, { id: sha256Hex(token) });
  return sessionIsLive(session, now) ? session : null;
}

/** `keep` spares one session of the user (a password change keeps the caller signed in). */
type SessionFilter = { id: string } | { userId: string; keep?: string };

/**
 * One session was revoked, in the caller's transaction: the tokens module stops the tokens issued for it.
 * Required: a revoked session whose tokens kept working would not be revoked.
 */
export const onSessionRevoked = defineHook<[em: EntityManager, now: Date, sessionId: string]>('onSessionRevoked', { required: true });

/** A session that revokeSessions ended. */
export interface EndedSession {
  id: string;
  userId: string;
}

/**
 * Sessions were ended (logout, revoke_session, a password change, revoke_access, a detected refresh reuse), in
 * the caller's transaction: OpenID Connect Back-Channel Logout 1.0 §2.7 tells the relying parties of each.
 * Every way a session ends goes through revokeSessions, so this is the one place to listen.
 */
export const onSessionsEnded = defineHook<[em: EntityManager, now: Date, sessions: EndedSession[]]>('onSessionsEnded');

export async function revokeSessions(em: EntityManager, now: Date, filter: SessionFilter): Promise<number> {
  const where = 'keep' in filter && filter.keep ? { userId: filter.userId, id: { $ne: filter.keep } } : filter;
  const live = { ...where, revokedAt: null } as FilterQuery<SessionRow>;
  const ending = await em.find(Session, live, { fields: ['id', 'userId'], disableIdentityMap: true });
  if (ending.length === 0) return 0;
  const ended = await em.nativeUpdate(Session, { id: { $in: ending.map((row) => row.id) }, revokedAt: null }, { revokedAt: now });
  await onSessionsEnded.run(em, now, ending.map((row) => ({ id: row.id, userId: row.userId })));
  return ended;
}

export function deleteSessionsOfUser(em: EntityManager, userId: string): Promise<number> {
  return em.nativeDelete(Session, { userId });
}
