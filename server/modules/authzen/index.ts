/**
 * The AuthZEN Authorization API 1.0 Policy Decision Point over the embedded FGA engine (docs/authzen.md): the
 * spec's REST endpoints and metadata document, the same decisions as operations for GraphQL and gRPC, and the
 * `pdp_client` authenticator buildApp wires for them. A flow above fga, tokens, clients and oauth.
 */
import { defineModule } from '../manifest.ts';
import { authzenOperations } from './authzen.ops.ts';
import { authzenEndpoints } from './authzen.endpoints.ts';
import { pdpMetadataEndpoint } from './metadata.endpoint.ts';

export { pdpClientAuthenticator, pdpResource, PDP_BASE_PATH } from './pdp-client.ts';

export const authzenModule = defineModule({
  name: 'authzen',
  operations: authzenOperations,
  endpoints: [...authzenEndpoints, pdpMetadataEndpoint],
});
