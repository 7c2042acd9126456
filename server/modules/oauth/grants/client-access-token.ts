/**
 * The access token a client gets for itself, by client_credentials (RFC 6749 section 4.4) or by a jwt-bearer
 * assertion of one of its trusted issuers (RFC 7523 section 2.1): aud = azp = client_id = the client (RFC 9068
 * section 2.2, the convention of every token issued to a registered client), the subject the grant names,
 * token_type access_token, scope as an array like the server's other access tokens. Neither is recorded in
 * token_records nor comes with a refresh or ID token (the grants say why).
 */
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../../kernel/deps.ts';
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { ACCESS_TOKEN_SECONDS, confirmationOf, issuerOf, signToken, tokenTypeFor, type Claims } from '../../tokens/index.ts';

/**
 * The scope granted to a client (RFC 6749 section 3.3): the requested scopes, each among its allowed_scopes,
 * else invalid_scope; none requested means all of allowed_scopes.
 */
export function scopeWithinAllowed(requested: readonly string[] | undefined, allowed: readonly string[]): string[] {
  if (requested === undefined) return [...allowed];
  const outside = requested.filter((scope) => !allowed.includes(scope));
  if (outside.length > 0) {
    // Names only what the client asked for, never the rest of its allowed list.
    throw new OAuthError(400, 'invalid_scope', `scope not allowed for this client: ${outside.slice(0, 5).join(' ').slice(0, 200)}`);
  }
  return [...new Set(requested)];
}

/**
 * The token response (RFC 6749 section 5.1) carrying the client's access token. With a resource indicator
 * (RFC 8707 section 2, already checked against the client's allowed_resources) the aud names that resource
 * first, then the client, as for user tokens (claims.ts Grant.resource).
 */
export function clientAccessTokenResponse(deps: Deps, clientId: string, subject: string, scope: string[], resource?: string, dpopJkt?: string): Record<string, unknown> {
  const iat = Math.floor(deps.clock.now().getTime() / 1000);
  const claims: Claims = {
    iss: issuerOf(deps.config),
    sub: subject,
    aud: resource ? [resource, clientId] : clientId,
    azp: clientId,
    client_id: clientId,
    iat,
    exp: iat + ACCESS_TOKEN_SECONDS,
    // Unique, not secret: randomUUID draws from a buffered entropy pool instead of a CSPRNG call per token.
    jti: randomUUID(),
    token_type: 'access_token',
    scope,
    // RFC 9449 section 6.1: bound to the key of the request's DPoP proof.
    ...(dpopJkt ? confirmationOf(dpopJkt) : {}),
  };
  return { access_token: signToken(deps.keys, claims), token_type: tokenTypeFor(dpopJkt), expires_in: ACCESS_TOKEN_SECONDS, scope: scope.join(' ') };
}
