/**
 * Inbound SCIM 2.0 per organization (docs/operations.md, "SCIM" and docs/api-overview.md#authentication; RFC 7643, RFC 7644): the
 * endpoint records and their admin operations, and the Users and Groups services the /scim/v2/ routes
 * (transports/http/protocol/scim) call once the bearer token has named the organization.
 */
import { defineModule } from '../manifest.ts';
import { ScimEndpoint, ScimGroup, ScimUser } from './scim.entity.ts';
import { scimEndpointOperations } from './scim-endpoints.ops.ts';

export { ScimEndpoint, ScimGroup, ScimUser } from './scim.entity.ts';
export { authenticateScimToken, type ScimAuthentication } from './scim-endpoints.service.ts';
export { scimBaseUrl } from './scim-endpoints.schema.ts';
export { ScimError, scimErrorBody } from './scim-errors.ts';
export { USER_VIEW, GROUP_VIEW } from './scim-attributes.ts';
export { equalityOf } from './scim-filter.ts';
export { applyPatch, readPatchBody } from './scim-patch.ts';
export { filterOf, listResponse, project, type ListQuery } from './scim-query.ts';
export { ConcurrentScimChange, etagOf, type ScimScope, type ScimResource } from './scim-scope.ts';
export { createScimUser, deleteScimUser, findScimUser, listScimUsers, replaceScimUser, toScimUser, writableUser } from './scim-users.service.ts';
export { createScimGroup, deleteScimGroup, findScimGroup, listScimGroups, replaceScimGroup, toScimGroup, writableGroup } from './scim-groups.service.ts';
export { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.ts';
export { MAX_BODY_BYTES } from './scim-limits.ts';

export const scimModule = defineModule({
  name: 'scim',
  entities: [ScimEndpoint, ScimUser, ScimGroup],
  operations: scimEndpointOperations,
});
