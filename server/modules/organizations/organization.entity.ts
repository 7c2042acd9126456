import { defineEntity, p } from '@mikro-orm/core';

/**
 * An organization (docs/api-overview.md#resources-and-fields, "Other records"): `name` is a unique URL-safe slug used in paths
 * (`/scim/v2/...`, SSO start URLs), `displayName` what people read. A disabled organization keeps its
 * records, but its org-admins lose their rights and its SSO connections stop signing anyone in.
 *
 * Every record scoped to one organization carries an `orgId` property; delete_organization removes the
 * rows of every entity that has one (organizations.service.ts deleteOrganization).
 */
export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p.string().primary().length(36),
    name: p.string().length(63).unique(),
    displayName: p.string().length(255),
    enabled: p.boolean(),
    createdAt: p.datetime().index(),
    updatedAt: p.datetime(),
  },
});
export type OrganizationRow = InstanceType<typeof Organization.class>;

/**
 * One user's membership of one organization with its org roles (`service:org_admin` is the reserved role
 * that may administer the organization: org-access.ts). One row per (organization, user).
 */
export const OrgMember = defineEntity({
  name: 'OrgMember',
  tableName: 'org_members',
  uniques: [{ name: 'org_members_org_user', properties: ['orgId', 'userId'] }],
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).index(),
    userId: p.string().length(36).index(),
    roles: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type OrgMemberRow = InstanceType<typeof OrgMember.class>;
