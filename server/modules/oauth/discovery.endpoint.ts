/**
 * GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0 section 4) and
 * GET /.well-known/oauth-authorization-server (RFC 8414 section 3; docs/api-overview.md#http-endpoints-outside-v1).
 * Their content is in discovery-metadata.ts. Each document is built on its first request, when every route is
 * registered (none is added after the server is ready), and served as it is afterwards, cacheable for five
 * minutes.
 */
import type { Deps } from '../../kernel/deps.ts';
import { defineEndpoint, type EndpointAnswer, type EndpointRequest } from '../../ops/endpoint.ts';
import { issuerOf } from '../tokens/index.ts';
import { authorizationServerMetadata, openidConfiguration, type RouteExists } from './discovery-metadata.ts';

export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';
const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';

type Document = Record<string, unknown>;

/** One document per server (its Deps): a process may run several, as the tests do. */
function documentAnswer(build: (deps: Deps, routeExists: RouteExists) => Document) {
  const built = new WeakMap<Deps, EndpointAnswer>();
  return async (request: EndpointRequest, deps: Deps): Promise<EndpointAnswer> => {
    let answer = built.get(deps);
    if (!answer) {
      answer = { kind: 'json', body: build(deps, request.serves), headers: { 'cache-control': DISCOVERY_CACHE_CONTROL } };
      built.set(deps, answer);
    }
    return answer;
  };
}

/**
 * RFC 8414 section 3 puts the well-known segment between the host and the issuer's path
 * (/.well-known/oauth-authorization-server/base for an issuer https://host/base); a proxy that strips the
 * path reaches the plain one. Both are served when --url has a path made of plain segments: a ':' or '*'
 * would turn the route into a parameter or a wildcard that answers for other paths.
 */
export function pathInsertedMetadataPaths(deps: Deps): string[] {
  const issuerPath = new URL(issuerOf(deps.config)).pathname.replace(/\/+$/, '');
  const plain = /^(\/[A-Za-z0-9._~-]+)+$/.test(issuerPath);
  return plain ? [`${OAUTH_METADATA_PATH}${issuerPath}`] : [];
}

const openidDocument = documentAnswer(openidConfiguration);
const oauthDocument = documentAnswer(authorizationServerMetadata);

export const openidConfigurationEndpoint = defineEndpoint({
  name: 'openid_configuration',
  methods: ['GET'],
  path: '/.well-known/openid-configuration',
  csrf: 'origin',
  body: 'none',
  errors: 'oauth',
  handler: (request, ctx) => openidDocument(request, ctx.deps),
});

export const authorizationServerMetadataEndpoint = defineEndpoint({
  name: 'oauth_authorization_server_metadata',
  methods: ['GET'],
  path: OAUTH_METADATA_PATH,
  alsoAt: pathInsertedMetadataPaths,
  csrf: 'origin',
  body: 'none',
  errors: 'oauth',
  handler: (request, ctx) => oauthDocument(request, ctx.deps),
});
