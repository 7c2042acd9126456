/**
 * The last step of every way in (password, verified email, magic link, session refresh): issue the session
 * and tokens, record `user.login` in the outbox in the same transaction, and answer an AuthResponse.
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import type { UserRow } from '../users/index.ts';
import { toPublicUser } from '../users/index.ts';
import { issueSession } from '../tokens/index.ts';
export { DEFAULT_SCOPE } from '../tokens/index.ts';
import { recordEvent } from '../events/index.ts';
import { audit } from '../audit/index.ts';
import type { AuthResponse } from './accounts.schema.ts';

export interface LoginOptions {
  roles: string[];
  scope: string[];
  loginMethod: string;
  message: string;
  nonce?: string;
  /** A session refresh keeps the original authentication time (tokens/issue-session.ts). */
  authTime?: Date;
  /** Extra events to record before user.login (user.signup on a first verification, for example). */
  events?: string[];
}

export async function completeLogin(ctx: HandlerContext, user: UserRow, options: LoginOptions): Promise<Static<typeof AuthResponse>> {
  const tokens = await issueSession(ctx, user, {
    roles: options.roles,
    scope: options.scope,
    loginMethod: options.loginMethod,
    nonce: options.nonce,
    authTime: options.authTime,
  });
  const publicUser = toPublicUser(user);
  for (const event of [...(options.events ?? []), 'user.login']) {
    recordEvent(ctx.em, event, { user: publicUser, auth_recipe: options.loginMethod }, ctx.deps.clock);
  }
  // The audit entry joins this transaction (one insert with the session's). A session refresh (authTime kept)
  // is not a new login.
  if (!options.authTime) {
    await audit(ctx, {
      action: 'user.login',
      actor: { type: 'user', id: user.id, email: user.email },
      resourceType: 'user',
      resourceId: user.id,
      metadata: { login_method: options.loginMethod },
    });
  }
  return { message: options.message, ...tokens, user: publicUser };
}
