/**
 * The device page's operations (login-ui/src/device; RFC 8628 section 3.3): a signed-in person types the
 * user code the device shows, sees which client asks for which scopes, and approves or denies. Both take
 * the code, and both count a wrong one against the person's address and session (device-authorizations.ts),
 * so deciding directly gains a guesser nothing over looking up.
 */
import type { HandlerContext } from '../../../ops/define.ts';
import { defineOperation } from '../../../ops/define.ts';
import { s, MessageResponse } from '../../../ops/schema.ts';
import { AppError } from '../../../kernel/errors.ts';
import { audit } from '../../audit/index.ts';
import { findSession } from '../../sessions/index.ts';
import { findAuthorizeClient } from '../authorize-client.ts';
import { decideDeviceAuthorization, findByUserCode } from './device-authorizations.ts';

const userCode = s.string({ minLength: 1, maxLength: 32, description: 'the code the device shows, as typed (case, spaces and dashes do not matter)' });

const DeviceAuthorizationQuery = s.object('DeviceAuthorizationQuery', { user_code: userCode });

const DeviceAuthorizationView = s.object('DeviceAuthorizationRequest', {
  client_id: s.string(),
  client_name: s.string(),
  scopes: s.list(s.string()),
});

const DecideDeviceAuthorizationRequest = s.object('DecideDeviceAuthorizationRequest', {
  user_code: userCode,
  approve: s.boolean(),
});

/** The caller's live browser session: the one the device's tokens will be minted on. */
async function callerSession(ctx: HandlerContext): Promise<{ userId: string; sessionId: string }> {
  const caller = ctx.caller;
  if (caller.kind !== 'user' || !caller.sessionId) throw AppError.unauthenticated('sign in first');
  const session = await findSession(ctx.em, caller.sessionId);
  if (!session || session.revokedAt != null) throw AppError.unauthenticated('sign in first');
  return { userId: caller.userId, sessionId: caller.sessionId };
}

export const deviceAuthorizationRequestOp = defineOperation({
  name: 'device_authorization_request',
  admin: false,
  kind: 'query',
  description: 'The device sign-in request with this user code, for the device page; wrong codes are limited',
  input: DeviceAuthorizationQuery,
  output: DeviceAuthorizationView,
  auth: 'user',
  handler: async (input, ctx) => {
    const login = await callerSession(ctx);
    const row = await findByUserCode(ctx, ctx.em, input.user_code, { ip: ctx.req.ip, sessionId: login.sessionId });
    const client = await findAuthorizeClient(ctx.deps.config, ctx.em, row.clientId);
    if (!client) throw AppError.notFound('this code is wrong, expired or already used');
    return { client_id: client.clientId, client_name: client.name, scopes: row.scope };
  },
});

export const decideDeviceAuthorizationOp = defineOperation({
  name: 'decide_device_authorization',
  admin: false,
  kind: 'mutation',
  description: 'Approves or denies the device sign-in request with this user code; the device then gets tokens or access_denied',
  input: DecideDeviceAuthorizationRequest,
  output: MessageResponse,
  auth: 'user',
  handler: async (input, ctx) => {
    const login = await callerSession(ctx);
    const row = await findByUserCode(ctx, ctx.em, input.user_code, { ip: ctx.req.ip, sessionId: login.sessionId });
    await decideDeviceAuthorization(ctx.em, row, input.approve, login);
    // The person's decision is audited as their other account decisions are (modules/audit audit.ts), in
    // the same transaction: who let which client in, with which scopes, from which session.
    await audit(ctx, {
      action: input.approve ? 'user.device_approved' : 'user.device_denied',
      resourceType: 'oauth_client',
      resourceId: row.clientId,
      metadata: { scopes: row.scope, session_id: login.sessionId },
    });
    return { message: input.approve ? 'device approved' : 'device denied' };
  },
});

export const deviceOperations = [deviceAuthorizationRequestOp, decideDeviceAuthorizationOp];
