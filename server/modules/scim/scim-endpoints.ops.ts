/**
 * SCIM endpoint operations (docs/operations.md, "SCIM": create_scim_endpoint, rotate_scim_token,
 * delete_scim_endpoint, scim_endpoint). Org-scoped: the super-admin or that organization's org-admins
 * (organizations/org-access.ts). The token is in the create and rotate answers only; scim_endpoint never
 * returns it (nor its digest).
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { requireOrgAdmin } from '../organizations/index.ts';
import {
  ScimEndpointRequest, ScimEndpointStatus, ScimEndpointWithToken, scimBaseUrl, toPublicScimEndpoint,
} from './scim-endpoints.schema.ts';
import { createScimEndpoint, deleteScimEndpoint, findScimEndpoint, rotateScimToken } from './scim-endpoints.service.ts';

export const createScimEndpointOp = defineOperation({
  name: 'create_scim_endpoint',
  admin: true,
  kind: 'mutation',
  description: "Creates the organization's SCIM endpoint; the answer holds its bearer token, shown this once (super-admin or its org-admins)",
  input: ScimEndpointRequest,
  output: ScimEndpointWithToken,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    const { endpoint, token } = await createScimEndpoint(ctx.em, ctx.deps.clock.now(), org);
    return { scim_endpoint: toPublicScimEndpoint(endpoint, ctx.deps.config), token };
  },
});

export const rotateScimTokenOp = defineOperation({
  name: 'rotate_scim_token',
  admin: true,
  kind: 'mutation',
  description: "Issues a new bearer token for the organization's SCIM endpoint, shown this once; the old one is refused at once (super-admin or its org-admins)",
  input: ScimEndpointRequest,
  output: ScimEndpointWithToken,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    const { endpoint, token } = await rotateScimToken(ctx.em, ctx.deps.clock.now(), input.org_id);
    return { scim_endpoint: toPublicScimEndpoint(endpoint, ctx.deps.config), token };
  },
});

export const deleteScimEndpointOp = defineOperation({
  name: 'delete_scim_endpoint',
  admin: true,
  kind: 'mutation',
  description: "Deletes the organization's SCIM endpoint: its token is refused at once; provisioned users and groups stay (super-admin or its org-admins)",
  input: ScimEndpointRequest,
  output: MessageResponse,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    await deleteScimEndpoint(ctx.em, input.org_id);
    return { message: 'SCIM endpoint deleted successfully' };
  },
});

export const scimEndpointOp = defineOperation({
  name: 'scim_endpoint',
  admin: true,
  kind: 'query',
  description: "Reads the organization's SCIM endpoint without its token: whether it exists and the base URL (super-admin or its org-admins)",
  input: ScimEndpointRequest,
  output: ScimEndpointStatus,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    const endpoint = await findScimEndpoint(ctx.em, input.org_id);
    return {
      org_id: input.org_id,
      base_url: scimBaseUrl(ctx.deps.config),
      exists: endpoint !== null,
      ...(endpoint ? { scim_endpoint: toPublicScimEndpoint(endpoint, ctx.deps.config) } : {}),
    };
  },
});

export const scimEndpointOperations = [createScimEndpointOp, rotateScimTokenOp, deleteScimEndpointOp, scimEndpointOp];
