/**
 * The consent screen's operations (served over GraphQL, REST and gRPC like every operation): read a pending
 * authorization request, decide it, and list or revoke one's own consents. Only the signed-in user who
 * opened a request, in the same login, can see or decide it (pending-authorizations.ts).
 */
import type { HandlerContext } from '../../ops/define.ts';
import { defineOperation } from '../../ops/define.ts';
import { s, NoInput, MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { authTimeOf, findSession } from '../sessions/index.ts';
import { issuerOf } from '../tokens/index.ts';
import { unixSeconds } from '../users/index.ts';
import { Client } from '../clients/index.ts';
import { findAuthorizeClient, redirectUriAllowed } from './authorize-client.ts';
import { redirectUrl, responseFields, type ResponseMode, type ResponseTarget } from './authorization-response.ts';
import { consentsOf, grantConsent, revokeConsent } from './consents.ts';
import { closePendingAuthorization, findPendingAuthorization } from './pending-authorizations.ts';
import { deniedResumeUrl, withoutPrompt } from './resume-url.ts';
import { closePushedRequestOf, resumeAuthorizationUrl } from './pushed-resume.ts';

const AuthorizationRequestQuery = s.object('AuthorizationRequestQuery', {
  request_id: s.string({ minLength: 1, maxLength: 128 }),
});

const PendingAuthorizationView = s.object('PendingAuthorizationRequest', {
  client_id: s.string(),
  client_name: s.string(),
  scopes: s.list(s.string()),
  redirect_host: s.string({ description: 'host the browser returns to, so the person can tell who asks' }),
});

const DecideAuthorizationRequest = s.object('DecideAuthorizationRequest', {
  request_id: s.string({ minLength: 1, maxLength: 128 }),
  approve: s.boolean(),
});

const AuthorizationDecision = s.object('AuthorizationDecision', {
  redirect_uri: s.string({ description: 'where the browser goes next' }),
});

const ConsentView = s.object('Consent', {
  client_id: s.string(),
  client_name: s.string(),
  scopes: s.list(s.string()),
  created_at: s.int64(),
});

const Consents = s.object('Consents', { consents: s.list(ConsentView) });

const RevokeConsentRequest = s.object('RevokeConsentRequest', {
  client_id: s.string({ minLength: 1, maxLength: 64 }),
});

/** The caller's user id and the auth time of the login they act in (a refreshed session keeps it). */
async function callerLogin(ctx: HandlerContext): Promise<{ userId: string; authTime: Date }> {
  const caller = ctx.caller;
  if (caller.kind !== 'user' || !caller.sessionId) throw AppError.unauthenticated('sign in first');
  const session = await findSession(ctx.em, caller.sessionId);
  if (!session || session.revokedAt != null) throw AppError.unauthenticated('sign in first');
  return { userId: caller.userId, authTime: authTimeOf(session) };
}

async function requirePending(ctx: HandlerContext, requestId: string) {
  const pending = await findPendingAuthorization(ctx.em, ctx.deps.clock.now(), requestId, await callerLogin(ctx));
  // The same answer for unknown, expired and someone else's: the id tells nothing about other requests.
  if (!pending) throw AppError.notFound('authorization request not found or expired');
  return pending;
}

export const authorizationRequestOp = defineOperation({
  name: 'authorization_request',
  admin: false,
  kind: 'query',
  description: 'A pending authorization request of the signed-in user, for the consent screen',
  input: AuthorizationRequestQuery,
  output: PendingAuthorizationView,
  auth: 'user',
  handler: async (input, ctx) => {
    const pending = await requirePending(ctx, input.request_id);
    const client = await findAuthorizeClient(ctx.deps.config, ctx.em, pending.clientId);
    if (!client) throw AppError.notFound('authorization request not found or expired');
    return {
      client_id: client.clientId,
      client_name: client.name,
      scopes: pending.scopes,
      redirect_host: new URL(pending.params.redirect_uri!).host,
    };
  },
});

export const decideAuthorizationRequestOp = defineOperation({
  name: 'decide_authorization_request',
  admin: false,
  kind: 'mutation',
  description: 'Approves (remembering the consent) or denies a pending authorization request; answers where the browser goes next',
  input: DecideAuthorizationRequest,
  output: AuthorizationDecision,
  auth: 'user',
  handler: async (input, ctx) => {
    const { config } = ctx.deps;
    const now = ctx.deps.clock.now();
    const pending = await requirePending(ctx, input.request_id);
    if (input.approve) {
      await grantConsent(ctx.em, now, pending.userId, pending.clientId, pending.scopes);
      await closePendingAuthorization(ctx.em, pending);
      return { redirect_uri: await resumeAuthorizationUrl(ctx.em, config, withoutPrompt(pending.params, 'consent')) };
    }
    const params = pending.params;
    const target: ResponseTarget = { redirectUri: params.redirect_uri!, responseMode: params.response_mode as ResponseMode, state: params.state };
    // The client may have changed in the meantime: its redirect_uri is checked again before it is used.
    const client = await findAuthorizeClient(config, ctx.em, pending.clientId);
    const stillAllowed = client !== undefined && redirectUriAllowed(config, client, target.redirectUri);
    if (stillAllowed && (target.responseMode === 'query' || target.responseMode === 'fragment')) {
      await closePendingAuthorization(ctx.em, pending);
      await closePushedRequestOf(ctx.em, params);
      const fields = responseFields(target, issuerOf(config), { error: 'access_denied', error_description: 'the user denied the request' });
      return { redirect_uri: redirectUrl(target, fields) };
    }
    // form_post and web_message answers are pages: /authorize renders the refusal from the marked request.
    pending.decision = 'denied';
    await ctx.em.flush();
    return { redirect_uri: deniedResumeUrl(config, input.request_id) };
  },
});

export const consentsOp = defineOperation({
  name: 'consents',
  admin: false,
  kind: 'query',
  description: "The signed-in user's remembered consents to applications",
  input: NoInput,
  output: Consents,
  auth: 'user',
  handler: async (_input, ctx) => {
    if (ctx.caller.kind !== 'user') throw AppError.unauthenticated();
    const rows = await consentsOf(ctx.em, ctx.caller.userId);
    const clientIds = [...new Set(rows.map((row) => row.clientId))];
    const clients = clientIds.length > 0 ? await ctx.em.find(Client, { clientId: { $in: clientIds } }) : [];
    const names = new Map(clients.map((client) => [client.clientId, client.name]));
    return {
      consents: rows.map((row) => ({
        client_id: row.clientId,
        client_name: names.get(row.clientId) ?? row.clientId,
        scopes: row.scopes,
        created_at: unixSeconds(row.createdAt)!,
      })),
    };
  },
});

export const revokeConsentOp = defineOperation({
  name: 'revoke_consent',
  admin: false,
  kind: 'mutation',
  description: 'Forgets the consent to one application: it must ask again next time',
  input: RevokeConsentRequest,
  output: MessageResponse,
  auth: 'user',
  handler: async (input, ctx) => {
    if (ctx.caller.kind !== 'user') throw AppError.unauthenticated();
    if (!(await revokeConsent(ctx.em, ctx.caller.userId, input.client_id))) throw AppError.notFound('no consent to this application');
    return { message: 'consent revoked' };
  },
});

export const oauthOperations = [authorizationRequestOp, decideAuthorizationRequestOp, consentsOp, revokeConsentOp];
