/**
 * Every way an account comes into being in the account flows (signup, magic link, invitation) records
 * `user.created` in the same unit of work (docs/events.md), so no flow can forget it.
 */
import type { HandlerContext } from '../../ops/define.ts';
import { createUser, type NewUserData, type UserRow, toPublicUser } from '../users/index.ts';
import { recordEvent } from '../events/index.ts';

/** `ctx` is a handler's context, or the message worker's unit of work and deps (magic link signups). */
export async function createAccount(ctx: Pick<HandlerContext, 'em' | 'deps'>, data: NewUserData): Promise<UserRow> {
  const user = await createUser(ctx.em, ctx.deps.clock, data);
  recordEvent(ctx.em, 'user.created', { user: toPublicUser(user) }, ctx.deps.clock);
  return user;
}
