/**
 * GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0 section 3) and
 * GET /.well-known/jwks.json (RFC 7517; specification part 4.3). Everything is built from --url, never from
 * request headers, so the documents cannot be poisoned by a Host header. The JWKS holds the public key with
 * its kid, and no key at all for HMAC (a shared secret is never published).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../kernel/deps.ts';
import { issuerOf } from '../../../modules/tokens/index.ts';
import { UserSchema } from '../../../modules/users/user.schema.ts';

const CACHE = 'public, max-age=300';
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

export function openidConfiguration(deps: Deps): Record<string, unknown> {
  const { config, keys } = deps;
  const issuer = issuerOf(config);
  const userClaims = Object.keys(UserSchema.properties).filter((name) => name !== 'roles');
  const tokenClaims = ['iss', 'aud', 'sub', 'exp', 'iat', 'nonce', 'auth_time', 'amr', 'acr', 'at_hash', 'c_hash', 'token_type',
    'scope', 'roles', 'allowed_roles', 'login_method'];
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    end_session_endpoint: `${issuer}/logout`,
    response_types_supported: ['code', 'token', 'id_token'],
    response_modes_supported: ['query', 'fragment', 'form_post', 'web_message'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [keys.alg],
    scopes_supported: ['openid', 'email', 'profile', 'offline_access'],
    claims_supported: [...new Set([...tokenClaims, config.jwtRoleClaim, ...userClaims])],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    request_parameter_supported: false,
    claims_parameter_supported: false,
  };
}

export function openidConfigurationEndpoint(deps: Deps) {
  const document = openidConfiguration(deps);
  return async (_request: FastifyRequest, reply: FastifyReply) => reply.header('cache-control', CACHE).send(document);
}

export function jwksEndpoint(deps: Deps) {
  return async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', CACHE).type('application/json; charset=utf-8').send(deps.keys.jwks);
}
