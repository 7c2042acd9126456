/**
 * Organization operations (docs/operations.md, "Organizations"): create, delete and list belong to the
 * super-admin; reading and updating one organization are open to its org-admins too (org-access.ts). Served
 * over GraphQL, REST (/v1/admin/<name>) and gRPC from these definitions.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import {
  CreateOrganizationRequest, DeleteOrganizationRequest, ListOrganizationsRequest, OrganizationRequest, OrganizationSchema,
  Organizations, UpdateOrganizationRequest, toPublicOrganization,
} from './organizations.schema.ts';
import { createOrganization, deleteOrganization, findOrganization, listOrganizations, updateOrganization } from './organizations.service.ts';
import { requireOrgAdmin } from './org-access.ts';

export const createOrganizationOp = defineOperation({
  name: 'create_organization',
  admin: true,
  kind: 'mutation',
  description: 'Creates an organization; its name is a unique URL-safe slug (super-admin only)',
  input: CreateOrganizationRequest,
  output: OrganizationSchema,
  auth: 'admin',
  handler: async (input, ctx) => toPublicOrganization(await createOrganization(ctx.em, ctx.deps.clock.now(), input)),
});

export const updateOrganizationOp = defineOperation({
  name: 'update_organization',
  admin: true,
  kind: 'mutation',
  description: "Changes an organization's name, display name or enabled state; omitted fields stay (super-admin or its org-admins; only the super-admin may enable or disable)",
  input: UpdateOrganizationRequest,
  output: OrganizationSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.id);
    // An org-admin who could re-enable a disabled organization would undo the super-admin's suspension.
    if (input.enabled !== undefined && ctx.caller.kind !== 'super_admin') throw AppError.forbidden('only the super-admin enables or disables an organization');
    return toPublicOrganization(await updateOrganization(ctx.em, ctx.deps.clock.now(), org, input));
  },
});

export const deleteOrganizationOp = defineOperation({
  name: 'delete_organization',
  admin: true,
  kind: 'mutation',
  description: 'Deletes an organization with every record scoped to it: members, domains, SSO connections, SCIM endpoint (super-admin only)',
  input: DeleteOrganizationRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    const org = await findOrganization(ctx.em, { id: input.id });
    if (!org) throw AppError.notFound('organization not found');
    await deleteOrganization(ctx.em, org);
    return { message: 'organization deleted successfully' };
  },
});

export const organizationOp = defineOperation({
  name: 'organization',
  admin: true,
  kind: 'query',
  description: 'Reads one organization by id or by name (super-admin or its org-admins)',
  input: OrganizationRequest,
  output: OrganizationSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    if (Boolean(input.id) === Boolean(input.name)) throw AppError.invalid('give exactly one of id and name');
    const found = await findOrganization(ctx.em, input);
    // Outsiders hear permission denied for a missing organization too (org-access.ts).
    if (!found) {
      if (ctx.caller.kind === 'super_admin') throw AppError.notFound('organization not found');
      throw AppError.forbidden();
    }
    return toPublicOrganization(await requireOrgAdmin(ctx, found.id));
  },
});

export const organizationsOp = defineOperation({
  name: 'organizations',
  admin: true,
  kind: 'query',
  description: 'Lists organizations, newest first, optionally those whose name or display name contains `query` (super-admin only)',
  input: ListOrganizationsRequest,
  output: Organizations,
  auth: 'admin',
  handler: async (input, ctx) => {
    const page = await listOrganizations(ctx.em, input.pagination, input.query);
    return { organizations: page.items.map(toPublicOrganization), pagination: page.pagination };
  },
});

export const organizationOperations = [createOrganizationOp, updateOrganizationOp, deleteOrganizationOp, organizationOp, organizationsOp];
