/**
 * GET /.well-known/authzen-configuration (AuthZEN 1.0 section 9; docs/authzen.md#metadata): the Policy
 * Decision Point metadata. `policy_decision_point` is the issuer (--url), the identifier a PEP compares with
 * the URL it fetched the document from (section 9.2.3); each `*_endpoint` is listed only when this server
 * answers it (section 9.1.1: an absent parameter tells the PEP the PDP cannot answer that API). With an issuer
 * that has a path, the document is also at the path-inserted location (section 9.2, RFC 8615).
 * Public and cacheable for a few minutes, as the OAuth discovery documents are.
 */
import type { Deps } from '../../kernel/deps.ts';
import { defineEndpoint, type EndpointAnswer, type EndpointRequest } from '../../ops/endpoint.ts';
import { issuerOf } from '../tokens/index.ts';
import { PDP_ENDPOINTS } from './authzen.endpoints.ts';

export const PDP_METADATA_PATH = '/.well-known/authzen-configuration';

/** The path-inserted location for an issuer with a plain path (https://host/auth -> /.well-known/authzen-configuration/auth). */
function pathInsertedLocations(deps: Deps): string[] {
  const issuerPath = new URL(issuerOf(deps.config)).pathname.replace(/\/+$/, '');
  return /^(\/[A-Za-z0-9._~-]+)+$/.test(issuerPath) ? [`${PDP_METADATA_PATH}${issuerPath}`] : [];
}

/** The metadata document (section 9.1). */
export function pdpMetadata(deps: Deps, serves: EndpointRequest['serves']): Record<string, string> {
  const issuer = issuerOf(deps.config);
  const document: Record<string, string> = { policy_decision_point: issuer };
  for (const endpoint of PDP_ENDPOINTS) {
    if (serves('POST', endpoint.path)) document[endpoint.metadata] = `${issuer}${endpoint.path}`;
  }
  return document;
}

const built = new WeakMap<Deps, EndpointAnswer>();

export const pdpMetadataEndpoint = defineEndpoint({
  name: 'authzen_configuration',
  methods: ['GET'],
  path: PDP_METADATA_PATH,
  alsoAt: pathInsertedLocations,
  csrf: 'origin',
  body: 'none',
  errors: 'oauth',
  enabled: (deps) => deps.fga !== undefined,
  async handler(request, ctx) {
    let answer = built.get(ctx.deps);
    if (!answer) {
      answer = { kind: 'json', body: pdpMetadata(ctx.deps, request.serves), headers: { 'cache-control': 'public, max-age=300' } };
      built.set(ctx.deps, answer);
    }
    return answer;
  },
});
