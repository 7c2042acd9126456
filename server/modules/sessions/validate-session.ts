/**
 * validate_session and the cookie path of the user authenticator: the session a raw cookie value opens,
 * while its row is neither revoked nor expired and its user is still active. Outside a transaction both are
 * answered by the token state cache (modules/tokens/state-cache), which every revocation invalidates.
 */
import type { EntityManager } from '@mikro-orm/core';
import { inTransaction, type OpContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import type { UserRow } from '../users/index.ts';
import { findLiveSessionByToken, sessionIsLive } from './session-store.ts';
import type { SessionRow } from './session.entity.ts';
import { activeUser, findActiveUser } from './active-user.ts';

export async function validateSessionToken(
  ctx: OpContext & { em?: EntityManager },
  raw: string,
): Promise<{ session: SessionRow; user: UserRow }> {
  // Inside a transaction the reads must see what that transaction sees (a session refresh re-reads here).
  const transactional = inTransaction(ctx);
  const found = await liveSessionAndUser(ctx, raw, transactional ? undefined : ctx.deps.tokenState);
  // A use of the session, recorded at most once a minute (session-activity.ts), in its own autocommit write:
  // never inside a transaction (SQLite has one connection), where a session refresh opens a new row that
  // records its own use anyway.
  if (!transactional) await ctx.deps.sessionActivity?.touch(found.session, ctx.deps.clock.now());
  return found;
}

async function liveSessionAndUser(
  ctx: OpContext & { em?: EntityManager },
  raw: string,
  cache: OpContext['deps']['tokenState'],
): Promise<{ session: SessionRow; user: UserRow }> {
  if (!cache) {
    const em = ctx.em ?? ctx.deps.storage.fork();
    const session = await findLiveSessionByToken(em, raw, ctx.deps.clock.now());
    if (!session) throw AppError.unauthenticated('invalid or expired session');
    const user = await findActiveUser(em, session.userId);
    if (!user) throw AppError.unauthenticated('user access has been revoked');
    return { session, user };
  }
  const session = raw ? await cache.session(sha256Hex(raw)) : null;
  if (!sessionIsLive(session, ctx.deps.clock.now())) throw AppError.unauthenticated('invalid or expired session');
  const user = activeUser(await cache.user(session.userId));
  if (!user) throw AppError.unauthenticated('user access has been revoked');
  return { session, user };
}
