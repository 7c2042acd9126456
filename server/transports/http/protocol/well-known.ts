/**
 * GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0 section 4),
 * GET /.well-known/oauth-authorization-server (RFC 8414 section 3) and GET /.well-known/jwks.json (RFC 7517;
 * docs/api-overview.md#http-endpoints-outside-v1). The documents' content is in discovery-metadata.ts. The JWKS holds the public key
 * with its kid, and no key at all for HMAC (a shared secret is never published).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../kernel/deps.ts';
import { issuerOf } from '../../../modules/tokens/index.ts';
import { authorizationServerMetadata, openidConfiguration, type RouteExists } from './discovery-metadata.ts';

const CACHE = 'public, max-age=300';
export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';

/**
 * A handler that builds its document on the first request, when every route is registered (Fastify adds
 * none after ready), and serves that same document afterwards.
 */
function documentEndpoint(build: (routeExists: RouteExists) => Record<string, unknown>) {
  let document: Record<string, unknown> | undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    document ??= build((method, url) => request.server.hasRoute({ method, url }));
    return reply.header('cache-control', CACHE).send(document);
  };
}

/**
 * RFC 8414 section 3 puts the well-known segment between the host and the issuer's path
 * (/.well-known/oauth-authorization-server/base for an issuer https://host/base); a proxy that strips the
 * path reaches the plain one. Both are served when --url has a path made of plain segments: a ':' or '*'
 * would turn the route into a parameter or a wildcard that answers for other paths.
 */
export function oauthMetadataPaths(deps: Deps): string[] {
  const issuerPath = new URL(issuerOf(deps.config)).pathname.replace(/\/+$/, '');
  const plain = /^(\/[A-Za-z0-9._~-]+)+$/.test(issuerPath);
  return plain ? [OAUTH_METADATA_PATH, `${OAUTH_METADATA_PATH}${issuerPath}`] : [OAUTH_METADATA_PATH];
}

export function registerWellKnownRoutes(scope: FastifyInstance, deps: Deps): void {
  scope.get('/.well-known/openid-configuration', documentEndpoint((routeExists) => openidConfiguration(deps, routeExists)));
  const oauthMetadata = documentEndpoint((routeExists) => authorizationServerMetadata(deps, routeExists));
  for (const path of oauthMetadataPaths(deps)) scope.get(path, oauthMetadata);
  scope.get('/.well-known/jwks.json', async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', CACHE).type('application/json; charset=utf-8').send(deps.keys.jwks));
}
