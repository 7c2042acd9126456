/**
 * The token exchange itself (RFC 8693 section 2.1; docs/protocols.md): a client allowed to exchange
 * (token-exchange-client.ts) presents a user's access token of this server as subject_token, and optionally its
 * own access token as actor_token, and gets an access token for the same user, narrower or equal in scope,
 * for an audience it was allowed, that says who acts (`act`, section 4.1).
 *
 * - subject_token: checked as validate_jwt_token checks a token (checkIssuedToken: signature, expiry, its record
 *   live, its user active, its client active), and addressed to the exchanging client: its `aud` must name that
 *   client's id (a token the user got for it, or one another exchange named it an audience of). A token meant
 *   for someone else is not the exchanging client's to pass on (RFC 8693 section 2.1 leaves what subject token is
 *   acceptable to the server's policy; RFC 9700 section 2.3, audience-restricted tokens; Keycloak's standard
 *   token exchange applies the same rule). A revoked or signed-out token is refused.
 * - actor_token: a client_credentials access token issued to the exchanging client itself. The server vouches
 *   only for an actor it authenticated; any other token (a user's token, another client's, another issuer's)
 *   is refused. Its sub (the client) becomes act.sub; a subject that already carries `act` nests under it, and
 *   without an actor token the subject's `act` is kept, so a chain is never dropped by exchanging again.
 * - The issued token is recorded on the subject's session (token_records), so signing out or revoking that
 *   session ends it too; it lives no longer than the subject token; no refresh token (section 2.2.1 makes it
 *   optional, and a refresh would outlive the subject's check).
 * Every refusal is section 2.2.2's JSON error: invalid_request for unusable tokens, invalid_scope, invalid_target.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../kernel/errors.ts';
import { OAuthError } from '../../../kernel/oauth-error.ts';
import type { HandlerContext } from '../../../ops/define.ts';
import {
  ACCESS_TOKEN_SECONDS, ANY_CLIENT, checkIssuedToken, confirmationOf, issuedTo, issuerOf, recordToken, signToken, tokenTypeFor, verifyToken,
  type Claims, type IssuedToken,
} from '../../tokens/index.ts';
import { heldRoles } from '../../users/index.ts';
import { isClientCredentialsToken } from '../client-credentials-token.ts';
import { scopeField, stringField, type OAuthBody } from '../oauth-body.ts';
import { chosenResource } from '../resource-indicator.ts';
import type { ExchangeClient } from './token-exchange-client.ts';

/** RFC 8693 section 3: the one token type this server takes and issues. */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** Claims of the subject token the exchanged token keeps as they are (org-claims.ts). */
const CARRIED_CLAIMS = ['login_method', 'org_id', 'org_name', 'org_roles'] as const;

function refusedToken(which: 'subject_token' | 'actor_token', err: unknown): never {
  if (err instanceof AppError && err.kind === 'unauthenticated') {
    throw OAuthError.invalidRequest(`${which} is not acceptable: ${err.message}`);
  }
  throw err;
}

/** The token type fields (section 2.1): required with their token, access tokens only. */
function requireAccessTokenType(body: OAuthBody, field: string): void {
  const type = stringField(body, field);
  if (type !== ACCESS_TOKEN_TYPE) throw OAuthError.invalidRequest(`${field} must be ${ACCESS_TOKEN_TYPE}`);
}

/** Whether the token's `aud` (a string or a list, RFC 7519 section 4.1.3) names `clientId`. */
function audienceNames(aud: unknown, clientId: string): boolean {
  return Array.isArray(aud) ? aud.includes(clientId) : aud === clientId;
}

async function verifiedSubject(ctx: HandlerContext, token: string, clientId: string): Promise<IssuedToken> {
  let subject: IssuedToken;
  try {
    subject = await checkIssuedToken(ctx, token, 'access_token', ANY_CLIENT);
  } catch (err) {
    return refusedToken('subject_token', err);
  }
  // Section 2.2.2: a subject token unacceptable by policy is invalid_request.
  if (!audienceNames(subject.claims.aud, clientId)) {
    throw OAuthError.invalidRequest('subject_token is not acceptable: its aud does not name this client; exchange only a token issued to it or naming it as an audience');
  }
  return subject;
}

/** The actor's subject: the exchanging client's own client_credentials token, else refused (see above). */
async function verifiedActor(ctx: HandlerContext, token: string, subjectToken: string, clientId: string): Promise<string> {
  if (token === subjectToken) throw OAuthError.invalidRequest('actor_token must not be the subject_token');
  let claims: Claims;
  try {
    claims = await verifyToken(ctx.deps, token, 'access_token', issuedTo(clientId));
  } catch (err) {
    return refusedToken('actor_token', err);
  }
  if (!isClientCredentialsToken(claims)) {
    throw OAuthError.invalidRequest('actor_token must be an access token the client obtained for itself (client_credentials)');
  }
  return String(claims.sub);
}

/** The `act` claim of the issued token (section 4.1): the new actor, with the subject's chain nested under it. */
export function actClaim(actor: string | undefined, previous: unknown): Record<string, unknown> | undefined {
  const chain = previous !== null && typeof previous === 'object' ? (previous as Record<string, unknown>) : undefined;
  if (actor === undefined) return chain;
  return chain ? { sub: actor, act: chain } : { sub: actor };
}

/**
 * Scope (section 2.1 and RFC 6749 section 3.3): never wider than the subject token's, nor than the client's
 * allowed_scopes; none requested means the subject's, within the client's.
 */
function exchangedScope(requested: readonly string[] | undefined, subjectScope: unknown, allowed: readonly string[]): string[] {
  const held = Array.isArray(subjectScope) ? subjectScope.filter((s): s is string => typeof s === 'string')
    : typeof subjectScope === 'string' ? subjectScope.split(/\s+/).filter(Boolean) : [];
  if (requested === undefined) return held.filter((scope) => allowed.includes(scope));
  const outside = requested.filter((scope) => !held.includes(scope) || !allowed.includes(scope));
  if (outside.length > 0) {
    throw new OAuthError(400, 'invalid_scope', `scope wider than the subject token's or the client's: ${outside.slice(0, 5).join(' ').slice(0, 200)}`);
  }
  return [...new Set(requested)];
}

/**
 * The audiences the token is for (section 2.1 `audience` and `resource`, one of each at most): an audience must
 * be among those the administrator allowed the client for the exchange; a resource is checked by the resource
 * indicator rules (resource-indicator.ts) against those and the client's allowed_resources. Else invalid_target.
 */
function exchangeTargets(body: OAuthBody, client: ExchangeClient, audiences: readonly string[]): string[] {
  const targets: string[] = [];
  const resource = chosenResource(body.resource, [...(client.allowedResources ?? []), ...audiences]);
  if (!resource.ok) throw new OAuthError(400, 'invalid_target', resource.description);
  if (resource.resource) targets.push(resource.resource);
  const audience = body.audience;
  if (audience !== undefined && audience !== '') {
    const values = Array.isArray(audience) ? audience : [audience];
    if (values.length !== 1 || typeof values[0] !== 'string') throw new OAuthError(400, 'invalid_target', 'one audience per request');
    if (!audiences.includes(values[0])) throw new OAuthError(400, 'invalid_target', 'audience is not allowed for this client');
    if (!targets.includes(values[0])) targets.push(values[0]);
  }
  return targets;
}

export async function exchangeToken(
  ctx: HandlerContext, body: OAuthBody, client: ExchangeClient, audiences: readonly string[], dpopJkt?: string,
): Promise<Record<string, unknown>> {
  const subjectToken = stringField(body, 'subject_token');
  if (!subjectToken) throw OAuthError.invalidRequest('subject_token is required');
  requireAccessTokenType(body, 'subject_token_type');
  const actorToken = stringField(body, 'actor_token');
  if (actorToken) requireAccessTokenType(body, 'actor_token_type');
  else if (body.actor_token_type !== undefined) throw OAuthError.invalidRequest('actor_token_type without actor_token');
  const requestedType = stringField(body, 'requested_token_type');
  if (requestedType !== undefined && requestedType !== ACCESS_TOKEN_TYPE) {
    throw OAuthError.invalidRequest(`requested_token_type: only ${ACCESS_TOKEN_TYPE} is issued`);
  }
  const targets = exchangeTargets(body, client, audiences);
  const subject = await verifiedSubject(ctx, subjectToken, client.clientId);
  const actor = actorToken ? await verifiedActor(ctx, actorToken, subjectToken, client.clientId) : undefined;
  const scope = exchangedScope(scopeField(body), subject.claims.scope, client.allowedScopes);

  const iat = Math.floor(ctx.deps.clock.now().getTime() / 1000);
  // Never past the subject token (section 2.2.1 leaves the lifetime to the server; a delegation outliving
  // what it was derived from would outlive the user's own revocation check).
  const exp = Math.min(iat + ACCESS_TOKEN_SECONDS, Number(subject.claims.exp));
  const act = actClaim(actor, subject.claims.act);
  const carried = Object.fromEntries(CARRIED_CLAIMS.filter((name) => subject.claims[name] !== undefined).map((name) => [name, subject.claims[name]]));
  const claims: Claims = {
    ...carried,
    iss: issuerOf(ctx.deps.config),
    sub: subject.record.userId,
    aud: targets.length > 0 ? [...targets, client.clientId] : client.clientId,
    azp: client.clientId,
    client_id: client.clientId,
    iat,
    exp,
    jti: randomUUID(),
    token_type: 'access_token',
    scope,
    // The roles the subject token carried that its user still holds (validate-token.ts currentRolesOf).
    roles: heldRoles(subject.user, subject.claims.roles),
    ...(act ? { act } : {}),
    // RFC 9449 section 6.1: bound to the key of the exchange request's DPoP proof (../dpop/).
    ...(dpopJkt ? confirmationOf(dpopJkt) : {}),
  };
  const accessToken = signToken(ctx.deps.keys, claims);
  recordToken(ctx.em, {
    token: accessToken, kind: 'access', userId: subject.record.userId, sessionId: subject.record.sessionId, familyId: null, expiresAt: new Date(exp * 1000),
  });
  await ctx.em.flush();
  return {
    access_token: accessToken,
    issued_token_type: ACCESS_TOKEN_TYPE,
    token_type: tokenTypeFor(dpopJkt),
    expires_in: Math.max(0, exp - iat),
    scope: scope.join(' '),
  };
}
