/**
 * Inbound SCIM 2.0 per organization (docs/operations.md, "SCIM" and docs/api-overview.md#authentication; RFC 7643, RFC 7644): the
 * endpoint records and their admin operations, and the /scim/v2/ endpoints (scim-resources.endpoint.ts,
 * scim-discovery.endpoint.ts) whose Users and Groups services work once the bearer token has named the
 * organization (scim-request.ts). The transport writes their refusals in the SCIM error shape.
 */
import { subscription } from '../../kernel/hooks.ts';
import { defineModule } from '../manifest.ts';
import { onUserLeftAllOrganizations } from '../organizations/index.ts';
import { forgetDeletedAccount } from './scim-deleted-accounts.ts';
import { ScimEndpoint, ScimGroup, ScimGroupMember, ScimUser, ScimUserEmail } from './scim.entity.ts';
import { scimEndpointOperations } from './scim-endpoints.ops.ts';
import { scimDiscoveryEndpoints } from './scim-discovery.endpoint.ts';
import { scimResourceEndpoints } from './scim-resources.endpoint.ts';

export { ScimEndpoint, ScimGroup, ScimGroupMember, ScimUser } from './scim.entity.ts';
export { authenticateScimToken, type ScimAuthentication } from './scim-endpoints.service.ts';
export { scimBaseUrl } from './scim-endpoints.schema.ts';
export { ScimError, scimErrorBody } from './scim-errors.ts';
export { SCIM_CONTENT_TYPE } from './scim-request.ts';
export { MAX_BODY_BYTES } from './scim-limits.ts';

export const scimModule = defineModule({
  name: 'scim',
  entities: [ScimEndpoint, ScimUser, ScimGroup, ScimUserEmail, ScimGroupMember],
  operations: scimEndpointOperations,
  endpoints: [...scimDiscoveryEndpoints, ...scimResourceEndpoints],
  // What provisioning records for webhooks (docs/events.md).
  events: ['user.provisioned', 'user.deprovisioned', 'user.scim_updated', 'group.created', 'group.updated', 'group.deleted'],
  // delete_user: the account's provisioning records go with its memberships (scim-deleted-accounts.ts).
  hooks: [subscription(onUserLeftAllOrganizations, forgetDeletedAccount)],
});
