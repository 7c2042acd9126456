/**
 * POST /oauth/revoke (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints; RFC 7009). The RFC's `token` parameter is
 * accepted as well as the released API's `refresh_token`; token_type_hint (access_token or refresh_token)
 * is optional and only a hint (RFC 7009 section 2.1: the server looks the token up whatever it says).
 *
 * - A refresh token revokes its family: the tokens of the same grant (RFC 7009 section 2.1).
 * - A user's access token revokes that access token (its record), at once on every instance
 *   (invalidateTokenState).
 * - A client_credentials token is not recorded (grants/client-credentials-grant.ts) and cannot be revoked one
 *   by one; deactivating its client ends them all at introspection.
 * - A client revokes only tokens issued to it (RFC 7009 section 2.1: "the authorization server ... verifies
 *   whether the token was issued to the client making the revocation request"): a registered client the
 *   tokens whose azp is its client_id, the instance client (or a public caller naming it, as the SDK does)
 *   the instance tokens. Another client's token is left alone.
 *
 * Every outcome answers 200 {message} (RFC 7009 section 2.2), so the endpoint tells nobody which tokens
 * exist or whose they are. Exempt from the CSRF rule: back-ends and the SDK call it without Origin.
 */
import type { EntityManager } from '@mikro-orm/core';
import { decodeJwt } from 'jose';
import type { Deps } from '../../kernel/deps.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { OAuthError } from '../../kernel/oauth-error.ts';
import { defineEndpoint } from '../../ops/endpoint.ts';
import { audienceAccepts, findTokenRecord, issuedTo, revokeRefreshToken, revokeTokenRecords, invalidateTokenState } from '../tokens/index.ts';
import { requireClient, type AuthenticatedClient } from './client-auth.ts';
import { stringField } from './oauth-body.ts';

const REVOKED_MESSAGE = 'Token revoked successfully';
const MAX_TOKEN_LENGTH = 16_384;

/**
 * The client a stored token was issued to: its azp, or the instance client when it has none. The claims are
 * read without verifying the signature: a record exists only for the exact string this server signed.
 */
function issuedToCaller(deps: Deps, token: string, caller: AuthenticatedClient): boolean {
  try {
    return audienceAccepts(issuedTo(caller.registered ? caller.clientId : undefined), decodeJwt(token), deps.config.clientId);
  } catch {
    return false;
  }
}

/** Revokes the token when it is a live record of ours issued to the caller; silent otherwise. */
async function revokeOwnToken(em: EntityManager, deps: Deps, caller: AuthenticatedClient, token: string): Promise<void> {
  if (token.length > MAX_TOKEN_LENGTH) return;
  const record = await findTokenRecord(em, token);
  if (!record || !issuedToCaller(deps, token, caller)) return;
  if (record.kind === 'refresh') {
    await revokeRefreshToken(em, token, deps.clock);
  } else if (record.kind === 'access') {
    await revokeTokenRecords(em, deps.clock.now(), { id: sha256Hex(token) });
    await invalidateTokenState(em, { sessionId: record.sessionId });
  }
  // An ID token is not a credential to any endpoint (RFC 7009 covers access and refresh tokens): ignored.
}

export const revokeEndpoint = defineEndpoint({
  name: 'oauth_revoke',
  methods: ['POST'],
  path: '/oauth/revoke',
  refuseOtherMethods: true,
  csrf: { exempt: 'called by back-ends and the SDK without Origin; it needs the token it revokes' },
  body: 'oauth',
  errors: 'oauth',
  async handler(request, ctx) {
    const client = await requireClient(ctx.deps, request, request.body);
    const token = stringField(request.body, 'token') ?? stringField(request.body, 'refresh_token');
    if (!token) throw OAuthError.invalidRequest('token is required');
    await revokeOwnToken(ctx.em, ctx.deps, client, token);
    return { kind: 'json', body: { message: REVOKED_MESSAGE } };
  },
});
