/**
 * login, logout and session (docs/operations.md and docs/api-overview.md#authentication): the cookie pair is set as real
 * Set-Cookie headers by the transports from ctx.effects; the same credentials are in the body.
 */
import { defineOperation } from '../../ops/define.ts';
import { NoInput, MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { clearedSessionCookies, presentedSession } from '../../kernel/cookies.ts';
import { rolesForLogin } from '../users/index.ts';
import { endSession, validateSessionToken } from '../tokens/index.ts';
import { audit } from '../audit/index.ts';
import { authTimeOf } from '../sessions/index.ts';
import { AuthResponse, LoginRequest, SessionQueryRequest } from './accounts.schema.ts';
import { runLogin } from './login-flow.ts';
import { renewSession } from './sign-in-policy.ts';
import { requireRelations } from '../fga/index.ts';

export const loginOp = defineOperation({
  name: 'login',
  admin: false,
  kind: 'mutation',
  description: 'Signs in with email or phone number and password',
  input: LoginRequest,
  output: AuthResponse,
  auth: 'public',
  // The flow opens its own transaction for the writes only (login-flow.ts, issueTokens).
  transaction: false,
  handler: async (input, ctx) => runLogin(input, ctx),
});

export const logoutOp = defineOperation({
  name: 'logout',
  admin: false,
  kind: 'mutation',
  description: 'Ends the current session: its cookies, access, ID and refresh tokens stop working at once',
  input: NoInput,
  output: MessageResponse,
  auth: 'user',
  handler: async (_input, ctx) => {
    const caller = ctx.caller;
    if (caller.kind !== 'user' || !caller.sessionId) throw AppError.unauthenticated();
    await endSession(ctx, ctx.em, caller.sessionId);
    await audit(ctx, { action: 'user.logout', resourceType: 'session', resourceId: caller.sessionId });
    return { message: 'Logged out successfully' };
  },
});

/**
 * Exchanges a live session cookie for a fresh session and token set (the SDK's getSession). The old
 * session ends, so a stolen cookie stops working once its owner refreshes. `required_relations` are
 * checked before anything changes, and outside the transaction: the FGA store may share the database
 * (SQLite has one connection), so it must not be read while this request holds a transaction open.
 */
export const sessionOp = defineOperation({
  name: 'session',
  admin: false,
  kind: 'query',
  description: 'Refreshes the current session from its cookie and returns new tokens, optionally requiring relations',
  input: SessionQueryRequest,
  output: AuthResponse,
  auth: 'public',
  graphql: { nullableArg: true },
  transaction: false,
  handler: async (input, ctx) => {
    const cookie = presentedSession(ctx.credentials.cookies);
    if (!cookie) throw AppError.unauthenticated('no session cookie: sign in first');
    let found;
    try {
      found = await validateSessionToken(ctx, cookie);
    } catch (err) {
      for (const cleared of clearedSessionCookies(ctx.deps.config)) ctx.effects.setCookie(cleared);
      throw err;
    }
    const { session, user } = found;
    // The new session asks for what the old one asked for; mintTokens narrows that to the roles the user
    // holds now, so a role an administrator removed is gone from these tokens.
    const roles = input.roles?.length ? rolesForLogin(user, input.roles) : session.roles;
    await requireRelations(ctx.deps, { user: `user:${user.id}` }, input.required_relations, ctx.permissionChecks);
    return ctx.em.transactional(async (em) => {
      const txCtx = { ...ctx, em };
      // Read again inside the transaction, so that of two concurrent refreshes of one cookie only one wins.
      // The user is read again too, so the tokens carry the roles of this instant, not of the read above.
      const current = await validateSessionToken(txCtx, cookie);
      await endSession(txCtx, em, session.id);
      return renewSession(txCtx, current.user, {
        roles,
        scope: input.scope?.length ? input.scope : session.scope,
        loginMethod: session.loginMethod,
        // OWASP ASVS 3.3.4: refreshing does not restart the login's absolute lifetime.
        authTime: authTimeOf(session),
      });
    });
  },
});

export const sessionOperations = [loginOp, logoutOp, sessionOp];
