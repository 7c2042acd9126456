/**
 * A user's own sessions (docs/tokens.md#a-users-own-sessions; OWASP ASVS 3.3.4: users can view their active
 * sessions and devices and end any or all of them): `my_sessions` lists them, `revoke_my_session` ends one
 * (the caller's own included: that is a logout), `revoke_my_other_sessions` ends all but the caller's.
 *
 * The caller is the `user` auth kind: the session cookie or a first-party access token
 * (docs/identity-boundary.md#token-audience), whose session is the current one. Sessions are named by the
 * same one-way reference as the admin's list (sessions/admin-sessions.ops.ts sessionReference), never by the
 * token digest that keys the row, and only the caller's own sessions are searched: another user's reference
 * answers not found, as an unknown one does.
 *
 * Ending a session is what the admin's `revoke_session` does (revokeSessions, then the onSessionRevoked hook,
 * through which tokens revokes the session's tokens and tells the token state cache of every instance), so
 * its access and refresh tokens stop working at once, everywhere. Ending a session other than the caller's
 * needs a recent sign-in (step-up.ts; ASVS 3.3.4 asks for re-entered credentials): whoever holds a stolen
 * session must not be able to sign the owner out of theirs, while the owner, once signed in again, can end
 * the thief's.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { s, MessageResponse, NoInput } from '../../ops/schema.ts';
import { PaginatedRequest, Pagination, paginate } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { clearedSessionCookies } from '../../kernel/cookies.ts';
import { unixSeconds } from '../users/index.ts';
import { Session, authTimeOf, onSessionRevoked, revokeSessions, sessionReference, type SessionRow } from '../sessions/index.ts';
import { revokeOtherSessions } from '../tokens/index.ts';
import { audit } from '../audit/index.ts';
import { requireRecentAuthentication } from './step-up.ts';

const MySession = s.object('MySession', {
  id: s.string({ description: 'opaque reference of the session (never its token or the token digest)' }),
  current: s.boolean({ description: 'true for the session the call was made with' }),
  user_agent: s.optional(s.string({ description: 'the User-Agent of the browser or app that opened the session' })),
  ip_address: s.optional(s.string({ description: 'the client address that opened the session (per --trusted-proxies)' })),
  login_method: s.string(),
  created_at: s.int64({ description: 'when the user signed in (kept across session refreshes)' }),
  last_used_at: s.int64({ description: 'when the session was last used, to the minute' }),
});

const MySessions = s.object('MySessions', {
  sessions: s.list(MySession),
  pagination: Pagination,
});

const RevokeMySessionRequest = s.object('RevokeMySessionRequest', {
  id: s.string({ minLength: 1, maxLength: 64, description: 'the reference my_sessions answered' }),
});

interface Me {
  userId: string;
  sessionId: string;
}

/** The signed-in caller and the session the call came with (a cookie's, or the access token's). */
function me(ctx: HandlerContext): Me {
  const { caller } = ctx;
  if (caller.kind !== 'user' || !caller.sessionId) throw AppError.unauthenticated();
  return { userId: caller.userId, sessionId: caller.sessionId };
}

function toMySession(row: SessionRow, current: string) {
  return {
    id: sessionReference(row.id),
    current: row.id === current,
    user_agent: row.userAgent ?? undefined,
    ip_address: row.ipAddress ?? undefined,
    login_method: row.loginMethod,
    created_at: unixSeconds(authTimeOf(row))!,
    last_used_at: unixSeconds(row.lastUsedAt ?? row.createdAt)!,
  };
}

async function auditEnded(ctx: HandlerContext, sessionId: string, current: boolean): Promise<void> {
  await audit(ctx, {
    action: 'user.session_revoked',
    resourceType: 'session',
    resourceId: sessionReference(sessionId),
    metadata: { current },
  });
}

export const mySessionsOp = defineOperation({
  name: 'my_sessions',
  admin: false,
  kind: 'query',
  description: "The caller's live sessions, newest sign-in first, with the device each was opened from; current marks the caller's own",
  input: PaginatedRequest,
  output: MySessions,
  auth: 'user',
  graphql: { nullableArg: true },
  handler: async (input, ctx) => {
    const { userId, sessionId } = me(ctx);
    const page = await paginate(ctx.em, Session, { userId, revokedAt: null }, input.pagination, { authTime: 'desc', createdAt: 'desc', id: 'asc' });
    return { sessions: page.items.map((row) => toMySession(row, sessionId)), pagination: page.pagination };
  },
});

export const revokeMySessionOp = defineOperation({
  name: 'revoke_my_session',
  admin: false,
  kind: 'mutation',
  description: "Ends one of the caller's sessions and every token issued for it, at once; the current one signs the caller out",
  input: RevokeMySessionRequest,
  output: MessageResponse,
  auth: 'user',
  handler: async (input, ctx) => {
    const { userId, sessionId } = me(ctx);
    // Only the caller's own rows are searched: another user's reference is not found (one indexed read).
    const live = await ctx.em.find(Session, { userId, revokedAt: null }, { fields: ['id'] });
    const session = live.find((row) => sessionReference(row.id) === input.id);
    if (!session) throw AppError.notFound('session not found');
    const current = session.id === sessionId;
    if (!current) await requireRecentAuthentication(ctx, 'sign out another session');
    const now = ctx.deps.clock.now();
    await revokeSessions(ctx.em, now, { id: session.id });
    await onSessionRevoked.run(ctx.em, now, session.id);
    // Ending the caller's own session is a logout: its cookies go too (session.ops.ts logout).
    if (current) for (const cookie of clearedSessionCookies(ctx.deps.config)) ctx.effects.setCookie(cookie);
    await auditEnded(ctx, session.id, current);
    return { message: current ? 'Logged out successfully' : 'session revoked successfully' };
  },
});

export const revokeMyOtherSessionsOp = defineOperation({
  name: 'revoke_my_other_sessions',
  admin: false,
  kind: 'mutation',
  description: "Ends every session of the caller but the current one, and their tokens, at once",
  input: NoInput,
  output: MessageResponse,
  auth: 'user',
  handler: async (_input, ctx) => {
    const { userId, sessionId } = me(ctx);
    await requireRecentAuthentication(ctx, 'sign out your other sessions');
    const others = await ctx.em.find(Session, { userId, revokedAt: null, id: { $ne: sessionId } }, { fields: ['id'] });
    // What a password change does (tokens/end-session.ts): the sessions and the tokens of all but the caller's
    // session, and the token state cache of every instance told at once.
    await revokeOtherSessions(ctx.em, ctx.deps.clock, userId, sessionId);
    for (const row of others) await auditEnded(ctx, row.id, false);
    return { message: others.length === 1 ? '1 other session revoked' : `${others.length} other sessions revoked` };
  },
});

export const mySessionOperations = [mySessionsOp, revokeMySessionOp, revokeMyOtherSessionsOp];
