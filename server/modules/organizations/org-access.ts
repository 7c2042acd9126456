/**
 * Who may act on one organization (docs/operations.md, "Organizations": org-scoped operations are open to
 * the super-admin or to that organization's org-admin role). A signed-in user passes only as a member of
 * that very organization holding `service:org_admin`, and only while the organization is enabled. Every other
 * caller, including an org-admin of another organization, hears the same `permission denied` whether or not
 * the organization exists, so the answer does not reveal which organizations there are.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Caller } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { OrgMember, Organization, type OrganizationRow } from './organization.entity.ts';
import { ORG_ADMIN_ROLE } from './organizations.schema.ts';

export interface OrgAccessContext {
  readonly em: EntityManager;
  readonly caller: Caller;
}

/** The organization, for a caller allowed to administer it; otherwise permission_denied (or not_found for the super-admin). */
export async function requireOrgAdmin(ctx: OrgAccessContext, orgId: string): Promise<OrganizationRow> {
  const org = await ctx.em.findOne(Organization, { id: orgId });
  if (ctx.caller.kind === 'super_admin') {
    if (!org) throw AppError.notFound('organization not found');
    return org;
  }
  if (ctx.caller.kind !== 'user' || !org || !org.enabled) throw AppError.forbidden();
  const membership = await ctx.em.findOne(OrgMember, { orgId, userId: ctx.caller.userId });
  if (!membership?.roles.includes(ORG_ADMIN_ROLE)) throw AppError.forbidden();
  return org;
}

export function isSuperAdmin(caller: Caller): boolean {
  return caller.kind === 'super_admin';
}
