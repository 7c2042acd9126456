/**
 * validate_session and the cookie path of the user authenticator: the session a raw cookie value opens,
 * while its row is neither revoked nor expired and its user is still active.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from '../users/user.entity.ts';
import { findLiveSessionByToken } from './session-store.ts';
import type { SessionRow } from './session.entity.ts';
import { findActiveUser } from './active-user.ts';

export async function validateSessionToken(
  ctx: OpContext & { em?: EntityManager },
  raw: string,
): Promise<{ session: SessionRow; user: UserRow }> {
  const em = ctx.em ?? ctx.deps.storage.fork();
  const session = await findLiveSessionByToken(em, raw, ctx.deps.clock.now());
  if (!session) throw AppError.unauthenticated('invalid or expired session');
  const user = await findActiveUser(em, session.userId);
  if (!user) throw AppError.unauthenticated('user access has been revoked');
  return { session, user };
}
