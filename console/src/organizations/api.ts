/**
 * The organization and membership calls (specification parts 2 "Other records" and 4.2 "Organizations"): the
 * admin GraphQL fields `_organizations`, `_organization`, `_create_organization`, `_update_organization`,
 * `_delete_organization`, `_org_members`, `_add_org_member` and `_remove_org_member`
 * (server/modules/organizations/organizations.ops.ts and members.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer, PageRequest, Pagination } from '../api/types.ts';

export interface Organization {
  id: string;
  /** The unique URL-safe slug. */
  name: string;
  display_name: string;
  enabled: boolean;
  created_at: number;
  updated_at: number;
}

export interface OrgMember {
  id: string;
  org_id: string;
  user_id: string;
  roles: string[];
  user?: { id: string; email?: string | null; given_name?: string | null; family_name?: string | null } | null;
  created_at: number;
}

export interface OrganizationFields {
  name: string;
  display_name?: string;
  enabled?: boolean;
}

const ORGANIZATION_FIELDS = 'id name display_name enabled created_at updated_at';
const PAGINATION_FIELDS = 'pagination { limit page offset total }';

export const organizationKeys = {
  all: ['organizations'] as const,
  lists: () => [...organizationKeys.all, 'list'] as const,
  list: (search: string, page: PageRequest) => [...organizationKeys.lists(), { search, ...page }] as const,
  one: (id: string) => [...organizationKeys.all, 'one', id] as const,
  members: (id: string) => [...organizationKeys.all, 'members', id] as const,
};

export function useOrganizations(search: string, page: PageRequest) {
  return useQuery({
    queryKey: organizationKeys.list(search, page),
    queryFn: async ({ signal }) => {
      const query = `query Organizations($params: ListOrganizationsRequest!) { _organizations(params: $params) {
        organizations { ${ORGANIZATION_FIELDS} } ${PAGINATION_FIELDS} } }`;
      type Answer = { _organizations: { organizations: Organization[]; pagination: Pagination } };
      const params = { pagination: page, ...(search ? { query: search } : {}) };
      return (await graphql<Answer>(query, { params }, signal))._organizations;
    },
    placeholderData: keepPreviousData,
  });
}

export function useOrganization(id: string) {
  return useQuery({
    queryKey: organizationKeys.one(id),
    queryFn: async ({ signal }) => {
      const query = `query Organization($params: OrganizationRequest!) { _organization(params: $params) { ${ORGANIZATION_FIELDS} } }`;
      return (await graphql<{ _organization: Organization }>(query, { params: { id } }, signal))._organization;
    },
  });
}

export async function createOrganization(fields: OrganizationFields): Promise<Organization> {
  const mutation = `mutation CreateOrganization($params: CreateOrganizationRequest!) { _create_organization(params: $params) { ${ORGANIZATION_FIELDS} } }`;
  return (await graphql<{ _create_organization: Organization }>(mutation, { params: fields }))._create_organization;
}

/** Omitted fields stay as they are on the server. */
export async function updateOrganization(id: string, changes: Partial<OrganizationFields>): Promise<Organization> {
  const mutation = `mutation UpdateOrganization($params: UpdateOrganizationRequest!) { _update_organization(params: $params) { ${ORGANIZATION_FIELDS} } }`;
  return (await graphql<{ _update_organization: Organization }>(mutation, { params: { id, ...changes } }))._update_organization;
}

export async function deleteOrganization(id: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteOrganization($params: DeleteOrganizationRequest!) { _delete_organization(params: $params) { message } }';
  return (await graphql<{ _delete_organization: MessageAnswer }>(mutation, { params: { id } }))._delete_organization;
}

export function useOrgMembers(orgId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...organizationKeys.members(orgId), page],
    queryFn: async ({ signal }) => {
      const query = `query OrgMembers($params: OrgMembersRequest!) { _org_members(params: $params) {
        members { id org_id user_id roles user { id email given_name family_name } created_at } ${PAGINATION_FIELDS} } }`;
      type Answer = { _org_members: { members: OrgMember[]; pagination: Pagination } };
      return (await graphql<Answer>(query, { params: { org_id: orgId, pagination: page } }, signal))._org_members;
    },
    placeholderData: keepPreviousData,
  });
}

/** Adds the user, or replaces the org roles of a user who is a member already (the server's upsert). */
export async function addOrgMember(orgId: string, userId: string, roles: string[]): Promise<OrgMember> {
  const mutation = 'mutation AddOrgMember($params: AddOrgMemberRequest!) { _add_org_member(params: $params) { id user_id roles } }';
  return (await graphql<{ _add_org_member: OrgMember }>(mutation, { params: { org_id: orgId, user_id: userId, roles } }))._add_org_member;
}

export async function removeOrgMember(orgId: string, userId: string): Promise<MessageAnswer> {
  const mutation = 'mutation RemoveOrgMember($params: RemoveOrgMemberRequest!) { _remove_org_member(params: $params) { message } }';
  return (await graphql<{ _remove_org_member: MessageAnswer }>(mutation, { params: { org_id: orgId, user_id: userId } }))._remove_org_member;
}
