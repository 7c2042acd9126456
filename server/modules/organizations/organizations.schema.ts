/**
 * Wire shapes of the organization and membership operations (docs/api-overview.md#resources-and-fields, "Other records";
 * docs/operations.md#create_organization and the operations after it; list operations take {page, limit}). Field lists beyond those names
 * follow the other admin records: snake_case, timestamps in Unix seconds.
 */
import { s, type Static } from '../../ops/schema.ts';
import { Pagination, PaginationRequest } from '../../ops/pagination.ts';
import { UserSchema, toPublicUser, type UserRow } from '../users/index.ts';
import type { OrgMemberRow, OrganizationRow } from './organization.entity.ts';

/** The reserved org role that may administer its organization (docs/api-overview.md#resources-and-fields). */
export const ORG_ADMIN_ROLE = 'service:org_admin';

const id = s.string({ minLength: 1, maxLength: 64 });
const slug = s.string({ minLength: 1, maxLength: 63, description: 'unique URL-safe slug: lowercase letters, digits and inner hyphens' });
const displayName = s.string({ minLength: 1, maxLength: 255 });
const roles = s.list(s.string({ minLength: 1, maxLength: 100 }), { maxItems: 50 });

export const OrganizationSchema = s.object('Organization', {
  id: s.string(),
  name: s.string(),
  display_name: s.string(),
  enabled: s.boolean(),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const OrgMemberSchema = s.object('OrgMember', {
  id: s.string(),
  org_id: s.string(),
  user_id: s.string(),
  roles: s.list(s.string()),
  user: s.optional(UserSchema),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const CreateOrganizationRequest = s.object('CreateOrganizationRequest', {
  name: slug,
  display_name: s.optional(displayName),
  enabled: s.optional(s.boolean()),
});

/** Omitted fields stay as they are. The slug can change: paths built from it move with it. */
export const UpdateOrganizationRequest = s.object('UpdateOrganizationRequest', {
  id,
  name: s.optional(slug),
  display_name: s.optional(displayName),
  enabled: s.optional(s.boolean()),
});

/** Exactly one of `id` and `name`. */
export const OrganizationRequest = s.object('OrganizationRequest', {
  id: s.optional(id),
  name: s.optional(slug),
});

export const DeleteOrganizationRequest = s.object('DeleteOrganizationRequest', { id });

export const ListOrganizationsRequest = s.object('ListOrganizationsRequest', {
  pagination: s.optional(PaginationRequest),
  query: s.optional(s.string({ maxLength: 255, description: 'part of the name or display name' })),
});

export const Organizations = s.object('Organizations', {
  organizations: s.list(OrganizationSchema),
  pagination: Pagination,
});

/** Adds the user, or replaces the roles of a user who is already a member. */
export const AddOrgMemberRequest = s.object('AddOrgMemberRequest', {
  org_id: id,
  user_id: id,
  roles: s.optional(roles),
});

export const RemoveOrgMemberRequest = s.object('RemoveOrgMemberRequest', { org_id: id, user_id: id });

export const OrgMembersRequest = s.object('OrgMembersRequest', {
  org_id: id,
  pagination: s.optional(PaginationRequest),
});

export const OrgMembers = s.object('OrgMembers', {
  members: s.list(OrgMemberSchema),
  pagination: Pagination,
});

/** Omitted: the caller's own organizations. */
export const UserOrganizationsRequest = s.object('UserOrganizationsRequest', { user_id: s.optional(id) });

export const UserOrganization = s.object('UserOrganization', {
  organization: OrganizationSchema,
  roles: s.list(s.string()),
});

export const UserOrganizations = s.object('UserOrganizations', { organizations: s.list(UserOrganization) });

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export type PublicOrganization = Static<typeof OrganizationSchema>;

export function toPublicOrganization(row: OrganizationRow): PublicOrganization {
  return {
    id: row.id,
    name: row.name,
    display_name: row.displayName,
    enabled: row.enabled,
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
  };
}

export function toPublicMember(row: OrgMemberRow, user?: UserRow): Static<typeof OrgMemberSchema> {
  return {
    id: row.id,
    org_id: row.orgId,
    user_id: row.userId,
    roles: [...row.roles],
    ...(user ? { user: toPublicUser(user) } : {}),
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
  };
}
