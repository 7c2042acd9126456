/**
 * The organization and membership calls (docs/api-overview.md#resources-and-fields;
 * docs/operations.md#create_organization and the operations after it): the
 * admin GraphQL fields `_organizations`, `_organization`, `_create_organization`, `_update_organization`,
 * `_delete_organization`, `_org_members`, `_add_org_member` and `_remove_org_member`
 * (server/modules/organizations/organizations.ops.ts and members.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer, PageRequest } from '../api/types.ts';

/** `name` is the unique URL-safe slug. */
export type Organization = Output<'organization'>;

export type OrgMember = Output<'add_org_member'>;

export type OrganizationFields = Input<'create_organization'>;

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
    queryFn: ({ signal }) => call('organizations', { pagination: page, ...(search ? { query: search } : {}) }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useOrganization(id: string) {
  return useQuery({
    queryKey: organizationKeys.one(id),
    queryFn: ({ signal }) => call('organization', { id }, signal),
  });
}

export async function createOrganization(fields: OrganizationFields): Promise<Organization> {
  return call('create_organization', fields);
}

/** Omitted fields stay as they are on the server. */
export async function updateOrganization(id: string, changes: Partial<OrganizationFields>): Promise<Organization> {
  return call('update_organization', { id, ...changes });
}

export async function deleteOrganization(id: string): Promise<MessageAnswer> {
  return call('delete_organization', { id });
}

export function useOrgMembers(orgId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...organizationKeys.members(orgId), page],
    queryFn: ({ signal }) => call('org_members', { org_id: orgId, pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}

/** Adds the user, or replaces the org roles of a user who is a member already (the server's upsert). */
export async function addOrgMember(orgId: string, userId: string, roles: string[]): Promise<OrgMember> {
  return call('add_org_member', { org_id: orgId, user_id: userId, roles });
}

export async function removeOrgMember(orgId: string, userId: string): Promise<MessageAnswer> {
  return call('remove_org_member', { org_id: orgId, user_id: userId });
}
