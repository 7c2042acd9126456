/**
 * Organization SAML connection operations (docs/operations.md, "Org SSO connections"): open to the
 * super-admin and to the organization's org-admins (organizations/org-access.ts). A caller who may not
 * administer the connection's organization hears permission denied whether or not the connection exists,
 * so ids cannot be probed. Deleting stops sign-ins through the connection at once, those in flight included.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { requireOrgAdmin, type OrganizationRow } from '../organizations/index.ts';
import {
  CreateOrgSamlConnectionRequest, DeleteOrgSamlConnectionRequest, OrgSamlConnectionRequest, OrgSamlConnectionSchema,
  UpdateOrgSamlConnectionRequest, toPublicSamlConnection,
} from './saml-connection.schema.ts';
import { createSamlConnection, findSamlConnection, updateSamlConnection } from './saml-connections.service.ts';
import { OrgSamlConnection, OrgSamlLoginState, type OrgSamlConnectionRow } from './saml-connection.entities.ts';
import { OrgSsoIdentity } from './org-sso.entities.ts';
import { forgetDiscoveryAnswer } from './discovery-flag.ts';

/** The connection named by id and its organization, for a caller allowed to administer it. */
async function administeredConnection(ctx: HandlerContext, id: string): Promise<{ row: OrgSamlConnectionRow; org: OrganizationRow }> {
  const row = await findSamlConnection(ctx.em, { id });
  if (!row) {
    if (ctx.caller.kind === 'super_admin') throw AppError.notFound('SAML connection not found');
    throw AppError.forbidden();
  }
  return { row, org: await requireOrgAdmin(ctx, row.orgId) };
}

export const createOrgSamlConnectionOp = defineOperation({
  name: 'create_org_saml_connection',
  admin: true,
  kind: 'mutation',
  description: "Connects an organization to its SAML 2.0 IdP, this server being the service provider (one per organization); the answer names the SP entity id and ACS address to register at the IdP (super-admin or its org-admins)",
  input: CreateOrgSamlConnectionRequest,
  output: OrgSamlConnectionSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    const row = await createSamlConnection(ctx.em, ctx.deps, input);
    ctx.afterCommit(async () => forgetDiscoveryAnswer(ctx.deps));
    return toPublicSamlConnection(ctx.deps.config, org.name, row);
  },
});

export const updateOrgSamlConnectionOp = defineOperation({
  name: 'update_org_saml_connection',
  admin: true,
  kind: 'mutation',
  description: 'Changes a SAML connection; omitted fields stay, a new IdP certificate replaces the stored ones (super-admin or its org-admins)',
  input: UpdateOrgSamlConnectionRequest,
  output: OrgSamlConnectionSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const { row, org } = await administeredConnection(ctx, input.id);
    const updated = await updateSamlConnection(ctx.em, ctx.deps, row, input);
    ctx.afterCommit(async () => forgetDiscoveryAnswer(ctx.deps));
    return toPublicSamlConnection(ctx.deps.config, org.name, updated);
  },
});

export const deleteOrgSamlConnectionOp = defineOperation({
  name: 'delete_org_saml_connection',
  admin: true,
  kind: 'mutation',
  description: 'Deletes a SAML connection: SSO sign-ins through it stop at once, those in flight included (super-admin or its org-admins)',
  input: DeleteOrgSamlConnectionRequest,
  output: MessageResponse,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const { row } = await administeredConnection(ctx, input.id);
    // Flows in flight fail at the ACS (they name a connection that is gone); their rows and the identity
    // links, which mean nothing under another IdP, go now.
    await ctx.em.nativeDelete(OrgSamlLoginState, { connectionId: row.id });
    await ctx.em.nativeDelete(OrgSsoIdentity, { connectionId: row.id });
    await ctx.em.nativeDelete(OrgSamlConnection, { id: row.id });
    ctx.afterCommit(async () => forgetDiscoveryAnswer(ctx.deps));
    return { message: 'SAML connection deleted successfully' };
  },
});

export const orgSamlConnectionOp = defineOperation({
  name: 'org_saml_connection',
  admin: true,
  kind: 'query',
  description: "Reads an organization's SAML connection by connection id or by organization id, exactly one of them (super-admin or its org-admins)",
  input: OrgSamlConnectionRequest,
  output: OrgSamlConnectionSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    if (Boolean(input.id) === Boolean(input.org_id)) throw AppError.invalid('give exactly one of id and org_id');
    if (input.id) {
      const { row, org } = await administeredConnection(ctx, input.id);
      return toPublicSamlConnection(ctx.deps.config, org.name, row);
    }
    const org = await requireOrgAdmin(ctx, input.org_id!);
    const row = await findSamlConnection(ctx.em, { orgId: input.org_id! });
    if (!row) throw AppError.notFound('this organization has no SAML connection');
    return toPublicSamlConnection(ctx.deps.config, org.name, row);
  },
});

export const samlConnectionOperations = [createOrgSamlConnectionOp, updateOrgSamlConnectionOp, deleteOrgSamlConnectionOp, orgSamlConnectionOp];
