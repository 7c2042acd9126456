/**
 * The `user` auth kind (docs/architecture.md#one-operation-three-protocols; docs/api-overview.md#authentication):
 * a bearer access token or the session cookie pair. Either one that is valid is enough, so a stale bearer
 * header next to a live cookie still works; with neither valid the call is refused.
 *
 * This is the first-party API: a bearer token counts only when it was issued to the instance client
 * (audience.ts FIRST_PARTY). A registered client's token is the user's consent to that client, for the
 * claims it was granted (/userinfo), not the user's own credential to their account.
 */
import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../../kernel/errors.ts';
import { presentedSession } from '../../kernel/cookies.ts';
import { inTransaction, type Caller, type OpContext } from '../../kernel/context.ts';
import type { Authenticator } from '../../ops/auth.ts';
import { validateSessionToken } from '../sessions/index.ts';
import { heldRoles } from '../users/index.ts';
import { checkIssuedToken } from './validate-token.ts';
import { FIRST_PARTY } from './audience.ts';
import { refuseBoundAsBearer } from './dpop/binding.ts';

/** The row's own times are not read on this path: the conditional update decides whether it is stale. */
const NEVER = new Date(0);

export const userAuthenticator: Authenticator = async (ctx): Promise<Caller> => {
  let refusal: AppError | undefined;
  const bearer = ctx.credentials.bearer;
  if (bearer) {
    try {
      const { claims, record, user } = await checkIssuedToken(ctx, bearer, 'access_token', FIRST_PARTY);
      // RFC 9449 section 7.2: a DPoP-bound token is not a bearer token; this API takes bearer tokens only.
      refuseBoundAsBearer(claims);
      // Role checks downstream see the token's roles the user still holds, not the token's copy alone.
      const current = { ...claims, roles: heldRoles(user, claims.roles), allowed_roles: [...user.roles] };
      // A use of the token's session (docs/tokens.md#a-users-own-sessions), as the cookie path records it: at
      // most one conditional write a minute per session and instance, never inside a transaction.
      if (record.sessionId && !inTransaction(ctx as OpContext & { em?: EntityManager })) await ctx.deps.sessionActivity?.touch({ id: record.sessionId, createdAt: NEVER }, ctx.deps.clock.now());
      return { kind: 'user', userId: record.userId, sessionId: record.sessionId, claims: current };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refusal = err;
    }
  }
  const cookie = presentedSession(ctx.credentials.cookies);
  if (cookie) {
    try {
      const { session, user } = await validateSessionToken(ctx, cookie);
      // Claims in the shape of an access token, so that role and scope checks read one shape either way.
      const claims = { sub: user.id, roles: heldRoles(user, session.roles), scope: session.scope, login_method: session.loginMethod, allowed_roles: user.roles };
      return { kind: 'user', userId: user.id, sessionId: session.id, claims };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refusal ??= err;
    }
  }
  throw refusal ?? AppError.unauthenticated('unauthorized: a bearer access token or session cookie is required');
};

/** Whether the request carries user credentials at all (bearer token or session cookie), valid or not. */
export function userCredentialsPresented(ctx: OpContext): boolean {
  return ctx.credentials.bearer !== undefined || presentedSession(ctx.credentials.cookies) !== undefined;
}
