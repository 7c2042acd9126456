/**
 * grant_type=client_credentials (RFC 6749 section 4.4; docs/api-overview.md#authentication, "client credentials"): a
 * registered client, authenticated with its secret (or, once served, a private_key_jwt assertion), gets an
 * access token for itself. The instance client and public callers are unauthorized_client: the instance
 * client stands for the first-party browser application, which has no business acting as itself.
 *
 * Scope (RFC 6749 section 3.3): the requested scopes, each of which must be among the client's
 * allowed_scopes (else invalid_scope); none requested means all of allowed_scopes.
 *
 * The token (RFC 9068 section 2.2): sub = client_id (no resource owner), client_id, aud and azp = client_id
 * as for every token issued to a registered client (claims.ts Grant.clientId), token_type access_token, the
 * usual iss/iat/exp/jti; scope as an array like the server's other access tokens. No refresh token and no
 * ID token (RFC 6749 section 4.4.3: a refresh token SHOULD NOT be included; there is no user to identify).
 *
 * Not recorded in token_records: a database write per token would cap the endpoint far below its target
 * (3,000 tokens/s), and a client token has no session or user whose end must end it.
 * Its validity is its signature and exp (30 minutes), plus, at introspection (introspect.endpoint.ts), that
 * its client is still registered and active (RFC 7662 section 2.2 lets the server decide what "active"
 * means). Revoking one such token is therefore not possible (RFC 7009 section 2: access token revocation is
 * a SHOULD); deactivating or deleting the client ends all of them at introspection. validate_jwt_token,
 * which answers for user tokens with their user's current roles, refuses them as it refuses any invalid
 * token (it finds no record, hence no user): resource servers check client tokens with /oauth/introspect.
 */
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { scopeField } from '../oauth-body.ts';
import { chosenResource } from '../resource-indicator.ts';
import { clientAccessTokenResponse, scopeWithinAllowed } from './client-access-token.ts';
import type { Grant } from './grant.ts';

export const CLIENT_CREDENTIALS = 'client_credentials';

export const clientCredentialsGrant: Grant = {
  grantType: CLIENT_CREDENTIALS,
  async handle({ ctx, body, client, dpopJkt }) {
    const registered = client.registered;
    if (!registered || client.method === 'none') {
      throw new OAuthError(400, 'unauthorized_client', 'client_credentials is for registered clients that authenticate');
    }
    const scope = scopeWithinAllowed(scopeField(body), registered.allowedScopes);
    const resource = chosenResource(body.resource, registered.allowedResources ?? []);
    if (!resource.ok) throw new OAuthError(400, 'invalid_target', resource.description);
    return clientAccessTokenResponse(ctx.deps, registered.clientId, registered.clientId, scope, resource.resource, dpopJkt);
  },
};
