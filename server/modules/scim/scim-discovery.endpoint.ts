/**
 * The discovery endpoints of /scim/v2/ (RFC 7644 section 4): ServiceProviderConfig, ResourceTypes and Schemas,
 * each list in the ListResponse shape (section 3.4.2) and each resource at its own id; and the SCIM 404 of any
 * other path under /scim/v2 (section 3.12). Like every SCIM endpoint they answer only a valid bearer token.
 */
import { defineEndpoint, type Endpoint, type EndpointRequest } from '../../ops/endpoint.ts';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.ts';
import { scimBaseUrl } from './scim-endpoints.schema.ts';
import { SCIM_ERROR_SCHEMA, ScimError } from './scim-errors.ts';
import { authenticateScimRequest, scimAnswer, SCIM_CONTENT_TYPE, SCIM_CSRF } from './scim-request.ts';

function listOf(resources: Record<string, unknown>[]): Record<string, unknown> {
  return { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: resources.length, itemsPerPage: resources.length, startIndex: 1, Resources: resources };
}

type Documents = (baseUrl: string) => Record<string, unknown>[];

/** GET `path` answers the whole list, GET `path/:id` one of its resources or the SCIM 404 naming it. */
function discoveryEndpoints(path: 'ResourceTypes' | 'Schemas', what: 'ResourceType' | 'Schema', documents: Documents): Endpoint[] {
  const name = path === 'ResourceTypes' ? 'resource_type' : 'schema';
  return [
    defineEndpoint({
      name: `scim_${name}s`, methods: ['GET'], path: `/scim/v2/${path}`, csrf: SCIM_CSRF, body: 'none', errors: 'scim',
      handler: async (_request, ctx) => {
        await authenticateScimRequest(ctx);
        return scimAnswer(200, listOf(documents(scimBaseUrl(ctx.deps.config))));
      },
    }),
    defineEndpoint({
      name: `scim_${name}`, methods: ['GET'], path: `/scim/v2/${path}/:id`, csrf: SCIM_CSRF, body: 'none', errors: 'scim',
      handler: async (request: EndpointRequest, ctx) => {
        await authenticateScimRequest(ctx);
        const found = documents(scimBaseUrl(ctx.deps.config)).find((r) => r.id === request.params.id);
        if (!found) throw ScimError.notFound(`${what} ${request.params.id} not found`);
        return scimAnswer(200, found);
      },
    }),
  ];
}

const serviceProviderConfigEndpoint = defineEndpoint({
  name: 'scim_service_provider_config', methods: ['GET'], path: '/scim/v2/ServiceProviderConfig', csrf: SCIM_CSRF, body: 'none', errors: 'scim',
  handler: async (_request, ctx) => {
    await authenticateScimRequest(ctx);
    return scimAnswer(200, serviceProviderConfig(scimBaseUrl(ctx.deps.config)));
  },
});

/**
 * Any other path under /scim/v2, any method: the SCIM 404 (RFC 7644 section 3.12), once the token is valid.
 * Answered rather than thrown, so that it carries no `Cache-Control: no-store`: only refusals do.
 */
const unknownPathEndpoint = defineEndpoint({
  name: 'scim_unknown_path', methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], path: '/scim/v2/*', alsoAt: () => ['/scim/v2'],
  csrf: SCIM_CSRF, body: 'json', errors: 'scim',
  handler: async (_request, ctx) => {
    await authenticateScimRequest(ctx);
    return { kind: 'json', status: 404, contentType: SCIM_CONTENT_TYPE, body: { schemas: [SCIM_ERROR_SCHEMA], status: '404', detail: 'no such SCIM endpoint' } };
  },
});

export const scimDiscoveryEndpoints: readonly Endpoint[] = [
  serviceProviderConfigEndpoint,
  ...discoveryEndpoints('ResourceTypes', 'ResourceType', resourceTypes),
  ...discoveryEndpoints('Schemas', 'Schema', schemas),
  unknownPathEndpoint,
];
