/**
 * grant_type=authorization_code (RFC 6749 section 4.1.3; RFC 7636 section 4.5): a code from /authorize is
 * exchanged once for tokens minted on the browser session that authorized it (modules/oauth
 * authorization-codes.ts holds the checks: expiry, single use, client, redirect_uri, PKCE verifier).
 * A registered client is confidential and must authenticate (RFC 6749 section 4.1.3 "require client
 * authentication for confidential clients"); the instance client may be public (the browser SDK), which
 * PKCE makes safe: only the holder of the code_verifier can redeem.
 */
import { CODE_VERIFIER, redeemAuthorizationCode, stringField } from '../../../../modules/oauth/index.ts';
import { buildHttpContext } from '../../request-context.ts';
import { noStore, sendInvalidClient, sendOAuthError } from '../oauth-errors.ts';
import type { Grant } from './grant.ts';

export const authorizationCodeGrant: Grant = {
  grantType: 'authorization_code',
  async handle({ deps, request, reply, body, client }) {
    const registered = client.registered !== undefined;
    if (registered && client.method === 'none') {
      return sendInvalidClient(reply, 'this client must authenticate to redeem an authorization code', false);
    }
    const code = stringField(body, 'code');
    if (!code) return sendOAuthError(reply, 400, 'invalid_request', 'code is required');
    const codeVerifier = stringField(body, 'code_verifier');
    if (!codeVerifier) return sendOAuthError(reply, 400, 'invalid_request', 'code_verifier is required (PKCE)');
    if (!CODE_VERIFIER.test(codeVerifier)) {
      return sendOAuthError(reply, 400, 'invalid_request', 'code_verifier must be 43 to 128 unreserved characters (RFC 7636 section 4.1)');
    }
    const ctx = buildHttpContext(deps, request, 'rest');
    const result = await redeemAuthorizationCode(ctx, deps.storage.fork(), {
      code,
      clientId: client.clientId,
      registered,
      redirectUri: stringField(body, 'redirect_uri'),
      codeVerifier,
    });
    if (!result.ok) return sendOAuthError(reply, 400, 'invalid_grant', result.description);
    const { tokens, scope } = result;
    return noStore(reply).status(200).send({
      access_token: tokens.access_token,
      token_type: 'Bearer',
      expires_in: tokens.expires_in,
      // OpenID Connect Core section 3.1.3.3: an ID token when the request had the openid scope.
      ...(scope.includes('openid') ? { id_token: tokens.id_token } : {}),
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      scope: scope.join(' '),
    });
  },
};
