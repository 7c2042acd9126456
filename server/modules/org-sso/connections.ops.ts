/**
 * Organization OIDC connection operations (docs/operations.md, "Org SSO connections"): open to the
 * super-admin and to the organization's org-admins (organizations/org-access.ts). A caller who may not
 * administer the connection's organization hears permission denied whether or not the connection exists,
 * so ids cannot be probed. No answer carries the client secret (docs/api-overview.md#resources-and-fields).
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { requireOrgAdmin } from '../organizations/index.ts';
import {
  CreateOrgOidcConnectionRequest, DeleteOrgOidcConnectionRequest, OrgOidcConnectionRequest, OrgOidcConnectionSchema,
  UpdateOrgOidcConnectionRequest, toPublicConnection,
} from './org-sso.schema.ts';
import { createConnection, findConnection, updateConnection } from './connections.service.ts';
import { OrgOidcConnection, OrgSsoIdentity, OrgSsoLoginState, type OrgOidcConnectionRow } from './org-sso.entities.ts';
import { forgetDiscoveryAnswer } from './discovery-flag.ts';

/** The connection named by id, for a caller allowed to administer its organization. */
async function administeredConnection(ctx: HandlerContext, id: string): Promise<OrgOidcConnectionRow> {
  const row = await findConnection(ctx.em, { id });
  if (!row) {
    if (ctx.caller.kind === 'super_admin') throw AppError.notFound('OIDC connection not found');
    throw AppError.forbidden();
  }
  await requireOrgAdmin(ctx, row.orgId);
  return row;
}

export const createOrgOidcConnectionOp = defineOperation({
  name: 'create_org_oidc_connection',
  admin: true,
  kind: 'mutation',
  description: "Connects an organization to its OpenID Connect IdP (one per organization); the client secret is stored encrypted and never returned (super-admin or its org-admins)",
  input: CreateOrgOidcConnectionRequest,
  output: OrgOidcConnectionSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    const row = await createConnection(ctx.em, ctx.deps, input);
    ctx.afterCommit(async () => forgetDiscoveryAnswer(ctx.deps));
    return toPublicConnection(row);
  },
});

export const updateOrgOidcConnectionOp = defineOperation({
  name: 'update_org_oidc_connection',
  admin: true,
  kind: 'mutation',
  description: 'Changes an OIDC connection; omitted fields stay, a new client secret replaces the stored one (super-admin or its org-admins)',
  input: UpdateOrgOidcConnectionRequest,
  output: OrgOidcConnectionSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const row = await administeredConnection(ctx, input.id);
    const updated = await updateConnection(ctx.em, ctx.deps, row, input);
    ctx.afterCommit(async () => forgetDiscoveryAnswer(ctx.deps));
    return toPublicConnection(updated);
  },
});

export const deleteOrgOidcConnectionOp = defineOperation({
  name: 'delete_org_oidc_connection',
  admin: true,
  kind: 'mutation',
  description: 'Deletes an OIDC connection: SSO sign-ins through it stop at once, those in flight included (super-admin or its org-admins)',
  input: DeleteOrgOidcConnectionRequest,
  output: MessageResponse,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const row = await administeredConnection(ctx, input.id);
    // Flows in flight fail at their callback (they name a connection that is gone); their rows and the
    // identity links, which mean nothing under another IdP, go now.
    await ctx.em.nativeDelete(OrgSsoLoginState, { connectionId: row.id });
    await ctx.em.nativeDelete(OrgSsoIdentity, { connectionId: row.id });
    await ctx.em.nativeDelete(OrgOidcConnection, { id: row.id });
    ctx.afterCommit(async () => forgetDiscoveryAnswer(ctx.deps));
    return { message: 'OIDC connection deleted successfully' };
  },
});

export const orgOidcConnectionOp = defineOperation({
  name: 'org_oidc_connection',
  admin: true,
  kind: 'query',
  description: "Reads an organization's OIDC connection by connection id or by organization id, exactly one of them (super-admin or its org-admins)",
  input: OrgOidcConnectionRequest,
  output: OrgOidcConnectionSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    if (Boolean(input.id) === Boolean(input.org_id)) throw AppError.invalid('give exactly one of id and org_id');
    if (input.id) return toPublicConnection(await administeredConnection(ctx, input.id));
    await requireOrgAdmin(ctx, input.org_id!);
    const row = await findConnection(ctx.em, { orgId: input.org_id! });
    if (!row) throw AppError.notFound('this organization has no OIDC connection');
    return toPublicConnection(row);
  },
});

export const connectionOperations = [createOrgOidcConnectionOp, updateOrgOidcConnectionOp, deleteOrgOidcConnectionOp, orgOidcConnectionOp];
