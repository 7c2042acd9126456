/**
 * Admin view of a user's login sessions: `_user_sessions` lists them and
 * `_revoke_session` ends one at once, served over GraphQL, REST (/v1/admin/user_sessions,
 * /v1/admin/revoke_session) and gRPC from these definitions.
 *
 * A session row's primary key is the SHA-256 of the cookie token (session.entity.ts). That digest is never
 * shown: an admin screen, a log line or a proxy that records answers must not hold a value that identifies
 * the cookie (OWASP ASVS 3.2.3 / 3.5: session tokens and their equivalents are never exposed). Each session is
 * named instead by a one-way reference derived from the digest under its own label, which can neither be
 * turned back into the row key nor presented as a cookie; `_revoke_session` finds the row by recomputing the
 * reference over the user's sessions (one indexed read of that user's rows).
 */
import type { EntityManager } from '@mikro-orm/core';
import { defineOperation } from '../../ops/define.ts';
import { s, MessageResponse } from '../../ops/schema.ts';
import { Pagination, PaginationRequest, paginate } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { findUserById, unixSeconds } from '../users/index.ts';
import { Session, type SessionRow } from './session.entity.ts';
import { onSessionRevoked, revokeSessions } from './session-store.ts';

/** Domain separation: the reference is a digest of the row key made for this purpose only. */
const REFERENCE_LABEL = 'portcullis/admin-session-reference/v1:';

export function sessionReference(sessionId: string): string {
  return sha256Hex(REFERENCE_LABEL + sessionId).slice(0, 32);
}

const UserSessionsRequest = s.object('UserSessionsRequest', {
  user_id: s.string({ minLength: 1, maxLength: 64 }),
  pagination: s.optional(PaginationRequest),
  include_revoked: s.optional(s.boolean({ description: 'also list sessions that were revoked or logged out' })),
});

const UserSession = s.object('UserSession', {
  id: s.string({ description: 'opaque reference of the session (never its token or the token digest)' }),
  login_method: s.string(),
  roles: s.list(s.string()),
  scope: s.list(s.string()),
  created_at: s.int64(),
  auth_time: s.int64(),
  expires_at: s.int64(),
  revoked_at: s.optional(s.int64()),
  user_agent: s.optional(s.string({ description: 'the User-Agent of the browser or app that opened the session' })),
  ip_address: s.optional(s.string({ description: 'the client address that opened the session (per --trusted-proxies)' })),
  last_used_at: s.int64({ description: 'when the session was last used, to the minute' }),
});

const UserSessions = s.object('UserSessions', {
  sessions: s.list(UserSession),
  pagination: Pagination,
});

const RevokeSessionRequest = s.object('RevokeSessionRequest', {
  user_id: s.string({ minLength: 1, maxLength: 64 }),
  id: s.string({ minLength: 1, maxLength: 64 }),
});

function toUserSession(row: SessionRow) {
  return {
    id: sessionReference(row.id),
    login_method: row.loginMethod,
    roles: row.roles,
    scope: row.scope,
    created_at: unixSeconds(row.createdAt)!,
    auth_time: unixSeconds(row.authTime ?? row.createdAt)!,
    expires_at: unixSeconds(row.expiresAt)!,
    revoked_at: unixSeconds(row.revokedAt),
    user_agent: row.userAgent ?? undefined,
    ip_address: row.ipAddress ?? undefined,
    last_used_at: unixSeconds(row.lastUsedAt ?? row.createdAt)!,
  };
}

async function requireUser(em: EntityManager, userId: string): Promise<void> {
  if (!(await findUserById(em, userId, { includeDeactivated: true }))) throw AppError.notFound('user not found');
}

export const userSessionsOp = defineOperation({
  name: 'user_sessions',
  admin: true,
  kind: 'query',
  description: "Lists a user's login sessions, newest first (live ones unless include_revoked)",
  input: UserSessionsRequest,
  output: UserSessions,
  auth: 'admin',
  handler: async (input, ctx) => {
    await requireUser(ctx.em, input.user_id);
    const where = input.include_revoked ? { userId: input.user_id } : { userId: input.user_id, revokedAt: null };
    const page = await paginate(ctx.em, Session, where, input.pagination, { createdAt: 'desc', id: 'asc' });
    return { sessions: page.items.map(toUserSession), pagination: page.pagination };
  },
});

export const revokeSessionOp = defineOperation({
  name: 'revoke_session',
  admin: true,
  kind: 'mutation',
  description: "Ends one of a user's sessions and every token issued for it, at once",
  input: RevokeSessionRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    await requireUser(ctx.em, input.user_id);
    const live = await ctx.em.find(Session, { userId: input.user_id, revokedAt: null }, { fields: ['id'] });
    const session = live.find((row) => sessionReference(row.id) === input.id);
    if (!session) throw AppError.notFound('session not found');
    // What logout does, without touching the caller's (the admin's) cookies: the session and its tokens.
    const now = ctx.deps.clock.now();
    await revokeSessions(ctx.em, now, { id: session.id });
    await onSessionRevoked.run(ctx.em, now, session.id);
    return { message: 'session revoked successfully' };
  },
});

export const sessionAdminOperations = [userSessionsOp, revokeSessionOp];
