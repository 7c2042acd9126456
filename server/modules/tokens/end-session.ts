/**
 * Ending sessions and revoking tokens: logout, revoke_access, deactivation and password reset revoke at once
 * (docs/tokens.md); delete_user removes the rows altogether. Each one tells the token state cache
 * what it ended (these are bulk statements, which the cache's flush hook does not see); the cache applies it
 * at once and again after the commit, and broadcasts it to the other instances.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../kernel/context.ts';
import { systemClock, type Clock } from '../../kernel/deps.ts';
import { clearedSessionCookies } from '../../kernel/cookies.ts';
import { deleteSessionsOfUser, revokeSessions } from '../sessions/index.ts';
import { deleteTokenRecordsOfUser, findTokenRecord, revokeTokenRecords } from './token-records.ts';
import { invalidateTokenState } from './state-cache/index.ts';

/** One session and every token issued for it stop working, on this instance and the others. */
export async function revokeSession(em: EntityManager, clock: Clock, sessionId: string): Promise<void> {
  const now = clock.now();
  await revokeSessions(em, now, { id: sessionId });
  await revokeTokensOfSession(em, now, sessionId);
}

/** The tokens issued for a session that was revoked stop working (also sessions' onSessionRevoked hook). */
export async function revokeTokensOfSession(em: EntityManager, now: Date, sessionId: string): Promise<void> {
  await revokeTokenRecords(em, now, { sessionId });
  await invalidateTokenState(em, { sessionId });
}

/** Logout: the caller's session ends (revokeSession) and both session cookies are cleared. */
export async function endSession(ctx: OpContext, em: EntityManager, sessionId: string): Promise<void> {
  await revokeSession(em, ctx.deps.clock, sessionId);
  for (const cookie of clearedSessionCookies(ctx.deps.config)) ctx.effects.setCookie(cookie);
}

/** revoke_access, deactivate_account, reset_password: every session and token of the user, at once. */
export async function revokeAllForUser(em: EntityManager, clock: Clock, userId: string): Promise<void> {
  const now = clock.now();
  await revokeSessions(em, now, { userId });
  await revokeTokenRecords(em, now, { userId });
  await invalidateTokenState(em, { userId });
}

/** A password change: every other session of the user and its tokens stop working; the caller's stays. */
export async function revokeOtherSessions(em: EntityManager, clock: Clock, userId: string, keepSessionId: string): Promise<void> {
  const now = clock.now();
  await revokeSessions(em, now, { userId, keep: keepSessionId });
  await revokeTokenRecords(em, now, { userId, keepSession: keepSessionId });
  await invalidateTokenState(em, { userId });
}

/** delete_user: no session or token row of the user is left behind. */
export async function purgeTokensForUser(em: EntityManager, userId: string): Promise<void> {
  await deleteTokenRecordsOfUser(em, userId);
  await deleteSessionsOfUser(em, userId);
  await invalidateTokenState(em, { userId });
}

/**
 * Reuse of a rotated refresh token (docs/tokens.md): someone holds a copy, so every token of the
 * family and the session it belongs to are revoked.
 */
export async function revokeFamily(em: EntityManager, now: Date, familyId: string, sessionId: string): Promise<void> {
  await revokeTokenRecords(em, now, { familyId });
  await revokeTokenRecords(em, now, { sessionId });
  await revokeSessions(em, now, { id: sessionId });
  await invalidateTokenState(em, { sessionId });
}

/**
 * revoke and /oauth/revoke (RFC 7009 section 2.1: revoking a refresh token should also invalidate the
 * access tokens of the same grant): revokes the token's family. Answers false when the token is not a
 * refresh token of ours; callers answer success anyway, so the endpoint is no token oracle.
 */
export async function revokeRefreshToken(em: EntityManager, token: string, clock: Clock = systemClock): Promise<boolean> {
  const record = await findTokenRecord(em, token);
  if (!record || record.kind !== 'refresh' || !record.familyId) return false;
  await revokeTokenRecords(em, clock.now(), { familyId: record.familyId });
  // A family belongs to one session: forgetting the session's cached records covers the family.
  await invalidateTokenState(em, { sessionId: record.sessionId });
  return true;
}
