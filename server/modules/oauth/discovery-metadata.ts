/**
 * The discovery documents: OAuth 2.0 Authorization Server Metadata (RFC 8414 section 2) and OpenID Connect
 * Discovery 1.0 section 3, which adds the OpenID fields to the same content. They list only what answers:
 * a relying party that follows an advertised endpoint or value must not meet a 404 or an
 * unsupported_grant_type. So
 * - each endpoint of ENDPOINTS is advertised only when its route is registered (checked against the router,
 *   not assumed);
 * - without an authorization endpoint there are no response_modes_supported or
 *   code_challenge_methods_supported, and response_types_supported (REQUIRED in both documents) is the true
 *   answer: none;
 * - grant_types_supported is the list of grants /oauth/token serves (grants/index.ts);
 * - the client authentication methods are those of client-auth.ts;
 * - id_token_signing_alg_values_supported is --jwt-type, and claims_supported names only claims the server
 *   issues (no c_hash: no response type returns a code and an ID token together).
 * Everything is built from --url, never from request headers, so the documents cannot be poisoned by a Host
 * header.
 */
import type { Deps } from '../../kernel/deps.ts';
import type { EndpointMethod, EndpointRequest } from '../../ops/endpoint.ts';
import { DPOP_SIGNING_ALGORITHMS, issuerOf } from '../tokens/index.ts';
import { UserSchema } from '../users/index.ts';
import { ASSERTION_ALGORITHMS } from '../clients/index.ts';
import { CLIENT_AUTH_METHODS } from './client-auth.ts';
import { GRANTS } from './grants/index.ts';

/** Whether a route is registered with exactly this method and path. */
export type RouteExists = EndpointRequest['serves'];

/**
 * Endpoint metadata fields (RFC 8414 section 2, RFC 7662 section 4, OpenID Connect Discovery section 3 and
 * RP-Initiated Logout section 2.1) and the route each one names; a field appears only when its route is
 * registered.
 */
export const ENDPOINTS: ReadonlyArray<{ field: string; method: EndpointMethod; path: string }> = [
  { field: 'authorization_endpoint', method: 'GET', path: '/authorize' },
  { field: 'token_endpoint', method: 'POST', path: '/oauth/token' },
  { field: 'userinfo_endpoint', method: 'GET', path: '/userinfo' },
  { field: 'jwks_uri', method: 'GET', path: '/.well-known/jwks.json' },
  { field: 'revocation_endpoint', method: 'POST', path: '/oauth/revoke' },
  { field: 'introspection_endpoint', method: 'POST', path: '/oauth/introspect' },
  { field: 'end_session_endpoint', method: 'GET', path: '/logout' },
  // RFC 8628 section 4.
  { field: 'device_authorization_endpoint', method: 'POST', path: '/oauth/device_authorization' },
  // RFC 8414 section 2 / RFC 7591 section 3: only with --dynamic-registration on (the route is mounted then).
  { field: 'registration_endpoint', method: 'POST', path: '/oauth/register' },
  // RFC 9126 section 5.
  { field: 'pushed_authorization_request_endpoint', method: 'POST', path: '/oauth/par' },
];

/**
 * What /authorize serves (authorize.endpoint.ts): response types, modes (OAuth 2.0 Multiple Response Type
 * Encoding Practices, Form Post Response Mode, and the SDK's web_message, docs/sdk-compatibility.md#oauth-endpoints) and PKCE methods (RFC 7636
 * section 4.2: S256 only, plain is refused).
 */
const AUTHORIZATION_VALUES = {
  response_types_supported: ['code', 'token'],
  response_modes_supported: ['query', 'fragment', 'form_post', 'web_message'],
  code_challenge_methods_supported: ['S256'],
};
/** Claims of the ID and access tokens (modules/tokens/claims.ts) besides the user's profile fields. */
const TOKEN_CLAIMS = ['iss', 'aud', 'sub', 'exp', 'iat', 'jti', 'nonce', 'auth_time', 'amr', 'acr', 'at_hash', 'sid', 'token_type',
  'scope', 'roles', 'allowed_roles', 'login_method'];

/** RFC 8414 section 2 metadata of this server. */
export function authorizationServerMetadata(deps: Deps, routeExists: RouteExists): Record<string, unknown> {
  const issuer = issuerOf(deps.config);
  const endpoints = Object.fromEntries(
    ENDPOINTS.filter((endpoint) => routeExists(endpoint.method, endpoint.path)).map((endpoint) => [endpoint.field, `${issuer}${endpoint.path}`]),
  );
  const hasRevocation = 'revocation_endpoint' in endpoints;
  const hasIntrospection = 'introspection_endpoint' in endpoints;
  const authorization = 'authorization_endpoint' in endpoints ? AUTHORIZATION_VALUES : { response_types_supported: [] };
  return {
    issuer,
    ...endpoints,
    scopes_supported: ['openid', 'email', 'profile', 'offline_access'],
    ...authorization,
    grant_types_supported: 'token_endpoint' in endpoints ? GRANTS.map((grant) => grant.grantType) : [],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    // RFC 8414 section 2: required once private_key_jwt is listed; the algorithms assertions.ts accepts.
    ...(CLIENT_AUTH_METHODS.includes('private_key_jwt') ? { token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS } : {}),
    ...(hasRevocation ? { revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS } : {}),
    ...(hasIntrospection ? { introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS.filter((m) => m !== 'none') } : {}),
    // RFC 9449 section 5.1: the algorithms a DPoP proof may use (tokens' dpop/proof.ts), with the token endpoint.
    ...('token_endpoint' in endpoints ? { dpop_signing_alg_values_supported: DPOP_SIGNING_ALGORITHMS } : {}),
    // RFC 9126 section 5: pushing is required per client (require_pushed_authorization_requests of the client), not server-wide.
    ...('pushed_authorization_request_endpoint' in endpoints ? { require_pushed_authorization_requests: false } : {}),
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
    // OpenID Connect Back-Channel Logout 1.0 §2.1 (oauth/backchannel): logout tokens, and sid in them and in ID tokens.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
}
