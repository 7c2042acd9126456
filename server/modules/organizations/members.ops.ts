/**
 * Membership operations (docs/operations.md, "Organizations": add_org_member with a set of org roles,
 * remove_org_member, org_members, user_organizations). Org-scoped: the super-admin or that organization's
 * org-admins (org-access.ts). user_organizations answers for the caller's own account, or for any account
 * when the super-admin asks.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import {
  AddOrgMemberRequest, OrgMemberSchema, OrgMembers, OrgMembersRequest, RemoveOrgMemberRequest, UserOrganizations,
  UserOrganizationsRequest, toPublicMember, toPublicOrganization,
} from './organizations.schema.ts';
import { addMember, listMembers, organizationsOfUser, removeMember } from './organizations.service.ts';
import { requireOrgAdmin } from './org-access.ts';

export const addOrgMemberOp = defineOperation({
  name: 'add_org_member',
  admin: true,
  kind: 'mutation',
  description: "Adds a user to an organization with a set of org roles, or replaces the roles of a member (super-admin, or its org-admins for users whose verified email is on one of the organization's verified domains)",
  input: AddOrgMemberRequest,
  output: OrgMemberSchema,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    const { member, user } = await addMember(ctx.em, ctx.deps.clock.now(), ctx.caller, org, input.user_id, input.roles);
    return toPublicMember(member, user);
  },
});

export const removeOrgMemberOp = defineOperation({
  name: 'remove_org_member',
  admin: true,
  kind: 'mutation',
  description: 'Removes a user from an organization (super-admin or its org-admins)',
  input: RemoveOrgMemberRequest,
  output: MessageResponse,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    await removeMember(ctx.em, input.org_id, input.user_id);
    return { message: 'member removed successfully' };
  },
});

export const orgMembersOp = defineOperation({
  name: 'org_members',
  admin: true,
  kind: 'query',
  description: 'Lists the members of an organization with their org roles, oldest first (super-admin or its org-admins)',
  input: OrgMembersRequest,
  output: OrgMembers,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    await requireOrgAdmin(ctx, input.org_id);
    const members = await listMembers(ctx.em, input.org_id, input.pagination);
    return { members: members.map(({ member, user }) => toPublicMember(member, user)), pagination: members.page };
  },
});

export const userOrganizationsOp = defineOperation({
  name: 'user_organizations',
  admin: true,
  kind: 'query',
  description: "Lists a user's organizations with the user's roles in each: the caller's own, or any user's for the super-admin",
  input: UserOrganizationsRequest,
  output: UserOrganizations,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    let userId: string;
    if (ctx.caller.kind === 'super_admin') {
      if (!input.user_id) throw AppError.invalid('user_id: required for the super-admin');
      userId = input.user_id;
    } else if (ctx.caller.kind === 'user') {
      if (input.user_id && input.user_id !== ctx.caller.userId) throw AppError.forbidden();
      userId = ctx.caller.userId;
    } else {
      throw AppError.unauthenticated();
    }
    const memberships = await organizationsOfUser(ctx.em, userId);
    return { organizations: memberships.map(({ org, roles }) => ({ organization: toPublicOrganization(org), roles })) };
  },
});

export const memberOperations = [addOrgMemberOp, removeOrgMemberOp, orgMembersOp, userOrganizationsOp];
