/**
 * grant_type=authorization_code (RFC 6749 section 4.1.3; RFC 7636 section 4.5): a code from /authorize is
 * exchanged once for tokens minted on the browser session that authorized it (modules/oauth
 * authorization-codes.ts holds the checks: expiry, single use, client, redirect_uri, PKCE verifier).
 * A registered client is confidential and must authenticate (RFC 6749 section 4.1.3 "require client
 * authentication for confidential clients"); the instance client and a public client registered at
 * /oauth/register (RFC 7591 token_endpoint_auth_method none) may be public (the browser SDK), which
 * PKCE makes safe: only the holder of the code_verifier can redeem.
 */
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { CODE_VERIFIER, redeemAuthorizationCode } from '../authorization-codes.ts';
import { stringField } from '../oauth-body.ts';
import { isPublicClient } from '../../clients/index.ts';
import { tokenTypeFor } from '../../tokens/index.ts';
import type { Grant } from './grant.ts';

export const authorizationCodeGrant: Grant = {
  grantType: 'authorization_code',
  async handle({ ctx, body, client, dpopJkt }) {
    const registered = client.registered !== undefined;
    // A public client registered at /oauth/register (RFC 7591) has no secret: PKCE alone binds the code to it.
    if (registered && client.method === 'none' && !isPublicClient(client.registered)) {
      throw OAuthError.invalidClient('this client must authenticate to redeem an authorization code', false);
    }
    const code = stringField(body, 'code');
    if (!code) throw OAuthError.invalidRequest('code is required');
    const codeVerifier = stringField(body, 'code_verifier');
    if (!codeVerifier) throw OAuthError.invalidRequest('code_verifier is required (PKCE)');
    if (!CODE_VERIFIER.test(codeVerifier)) {
      throw OAuthError.invalidRequest('code_verifier must be 43 to 128 unreserved characters (RFC 7636 section 4.1)');
    }
    const result = await redeemAuthorizationCode(ctx, ctx.em, {
      code,
      clientId: client.clientId,
      registered,
      redirectUri: stringField(body, 'redirect_uri'),
      codeVerifier,
      resource: stringField(body, 'resource'),
      ...(dpopJkt ? { dpopJkt } : {}),
      publicClient: client.method === 'none',
    });
    if (!result.ok) throw new OAuthError(400, result.error ?? 'invalid_grant', result.description);
    const { tokens, scope } = result;
    return {
      access_token: tokens.access_token,
      token_type: tokenTypeFor(dpopJkt),
      expires_in: tokens.expires_in,
      // OpenID Connect Core section 3.1.3.3: an ID token when the request had the openid scope.
      ...(scope.includes('openid') ? { id_token: tokens.id_token } : {}),
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      scope: scope.join(' '),
    };
  },
};
