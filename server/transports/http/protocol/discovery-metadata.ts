/**
 * The discovery documents: OAuth 2.0 Authorization Server Metadata (RFC 8414 section 2) and OpenID Connect
 * Discovery 1.0 section 3, which adds the OpenID fields to the same content. They list only what answers
 * today (issue "OAuth 2.0 / OIDC" item 5): a relying party that follows an advertised endpoint or value
 * must not meet a 404 or an unsupported_grant_type. So
 * - each endpoint is advertised only when its route is registered (checked against the router, not assumed);
 *   an endpoint joins ENDPOINTS together with its route;
 * - there is no authorization endpoint yet, hence no authorization_endpoint, response_modes_supported or
 *   code_challenge_methods_supported, and response_types_supported (REQUIRED in both documents) is the true
 *   answer: none;
 * - grant_types_supported is what /oauth/token accepts (token-endpoint.ts: the refresh_token grant);
 * - the client authentication methods are those of client-auth.ts;
 * - id_token_signing_alg_values_supported is --jwt-type, and claims_supported names only claims the server
 *   issues (no c_hash: that belongs to flows through the authorization endpoint).
 * Everything is built from --url, never from request headers, so the documents cannot be poisoned by a Host
 * header.
 */
import type { HTTPMethods } from 'fastify';
import type { Deps } from '../../../kernel/deps.ts';
import { issuerOf } from '../../../modules/tokens/index.ts';
import { UserSchema } from '../../../modules/users/user.schema.ts';

/** Whether a route is registered with exactly this method and path. */
export type RouteExists = (method: HTTPMethods, path: string) => boolean;

/** Endpoint metadata fields (RFC 8414 section 2) and the route each one names. */
const ENDPOINTS: ReadonlyArray<{ field: string; method: HTTPMethods; path: string }> = [
  { field: 'token_endpoint', method: 'POST', path: '/oauth/token' },
  { field: 'jwks_uri', method: 'GET', path: '/.well-known/jwks.json' },
  { field: 'revocation_endpoint', method: 'POST', path: '/oauth/revoke' },
];

/** The grant types /oauth/token serves (token-endpoint.ts). */
const GRANT_TYPES = ['refresh_token'];
/** client-auth.ts: HTTP Basic, the secret in the body, or a public client that sends client_id alone. */
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];
/** Claims of the ID and access tokens (modules/tokens/claims.ts) besides the user's profile fields. */
const TOKEN_CLAIMS = ['iss', 'aud', 'sub', 'exp', 'iat', 'jti', 'nonce', 'auth_time', 'amr', 'acr', 'at_hash', 'token_type',
  'scope', 'roles', 'allowed_roles', 'login_method'];

/** RFC 8414 section 2 metadata of this server. */
export function authorizationServerMetadata(deps: Deps, routeExists: RouteExists): Record<string, unknown> {
  const issuer = issuerOf(deps.config);
  const endpoints = Object.fromEntries(
    ENDPOINTS.filter((endpoint) => routeExists(endpoint.method, endpoint.path)).map((endpoint) => [endpoint.field, `${issuer}${endpoint.path}`]),
  );
  const hasRevocation = 'revocation_endpoint' in endpoints;
  return {
    issuer,
    ...endpoints,
    scopes_supported: ['openid', 'email', 'profile', 'offline_access'],
    response_types_supported: [],
    grant_types_supported: 'token_endpoint' in endpoints ? GRANT_TYPES : [],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    ...(hasRevocation ? { revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS } : {}),
  };
}

/** OpenID Connect Discovery 1.0 section 3: the RFC 8414 content plus the OpenID Provider fields. */
export function openidConfiguration(deps: Deps, routeExists: RouteExists): Record<string, unknown> {
  const { config, keys } = deps;
  const userClaims = Object.keys(UserSchema.properties).filter((name) => name !== 'roles');
  return {
    ...authorizationServerMetadata(deps, routeExists),
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [keys.alg],
    claims_supported: [...new Set([...TOKEN_CLAIMS, config.jwtRoleClaim, ...userClaims])],
  };
}
