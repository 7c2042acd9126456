import { defineEntity, p } from '@mikro-orm/core';

/**
 * An organization's inbound SCIM endpoint (docs/operations.md, "SCIM": one per organization; docs/api-overview.md#authentication: the
 * identity provider authenticates with a per-organization bearer token). Only the token's SHA-256 digest is
 * kept (scim-token.ts); the token itself is shown once, by create and rotate. `lastUsedAt` is written at most
 * once a minute, so that provisioning traffic does not turn every read into a write.
 */
export const ScimEndpoint = defineEntity({
  name: 'ScimEndpoint',
  tableName: 'scim_endpoints',
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).unique(),
    tokenDigest: p.string().length(64).unique(),
    tokenRotatedAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ScimEndpointRow = InstanceType<typeof ScimEndpoint.class>;

/**
 * One user provisioned into one organization by its identity provider (RFC 7643 section 4.1). The SCIM id
 * is the user's id; `userNameKey` (the lower-cased userName) is unique per organization, since userName is
 * case-insensitive (RFC 7643 section 4.1.1: caseExact false, uniqueness server). `resource` keeps the
 * attributes the provider sent that have no column on the user (emails beyond the primary one, title,
 * the enterprise extension, ...), never a password. `active` is the provider's flag.
 */
export const ScimUser = defineEntity({
  name: 'ScimUser',
  tableName: 'scim_users',
  uniques: [
    { name: 'scim_users_org_user_name', properties: ['orgId', 'userNameKey'] },
    { name: 'scim_users_org_user', properties: ['orgId', 'userId'] },
  ],
  // The list filters and orders that run in the database (scim-list.ts): externalId eq, meta.lastModified and
  // meta.created ranges, and the default order (created, then id), each an index range scan within one organization.
  indexes: [
    { name: 'scim_users_org_external', properties: ['orgId', 'externalId'] },
    { name: 'scim_users_org_updated', properties: ['orgId', 'updatedAt'] },
    { name: 'scim_users_org_created', properties: ['orgId', 'createdAt', 'id'] },
    // sortBy=userName: a deep page skips its offset over this index alone (scim-list-sources.ts pageRows).
    { name: 'scim_users_org_user_name_id', properties: ['orgId', 'userNameKey', 'id'] },
  ],
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).index(),
    userId: p.string().length(36).index(),
    userName: p.string().length(255),
    userNameKey: p.string().length(255),
    externalId: p.string().length(255).nullable(),
    active: p.boolean(),
    /**
     * Whether this organization governs the account itself (scim-account-control.ts): it was created by this
     * endpoint, or its email domain is verified for the organization. Only then do `active: false` and DELETE
     * revoke the account and may SCIM change its email; otherwise they act on the membership alone.
     */
    managesAccount: p.boolean(),
    resource: p.json<Record<string, unknown>>(),
    /** Counts the changes made through SCIM: the ETag (RFC 7644 section 3.14). */
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ScimUserRow = InstanceType<typeof ScimUser.class>;

/**
 * A group pushed by the organization's identity provider (RFC 7643 section 4.2). Its displayName is an org
 * role that its members hold (OrgMember.roles), so the provider's groups drive authorization inside the
 * organization. `displayNameKey` (lower-cased) is unique per organization: two groups must not map to one role.
 * Its members are rows of ScimGroupMember, one per member, so that a membership check or a member added or
 * removed is an index lookup, not a read of the whole list.
 */
export const ScimGroup = defineEntity({
  name: 'ScimGroup',
  tableName: 'scim_groups',
  uniques: [{ name: 'scim_groups_org_display_name', properties: ['orgId', 'displayNameKey'] }],
  indexes: [
    { name: 'scim_groups_org_external', properties: ['orgId', 'externalId'] },
    { name: 'scim_groups_org_updated', properties: ['orgId', 'updatedAt'] },
    { name: 'scim_groups_org_created', properties: ['orgId', 'createdAt', 'id'] },
  ],
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).index(),
    displayName: p.string().length(255),
    displayNameKey: p.string().length(255),
    externalId: p.string().length(255).nullable(),
    /**
     * The column the member list was kept in before scim_group_members: moved there by migration 0006 and left
     * empty. Still declared (never read: lazy) because a database that had it keeps it NOT NULL (the schema
     * update is `safe`, run-migrations.ts); every new group writes [].
     */
    legacyMembers: p.json<string[]>().name('members').lazy(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ScimGroupRow = InstanceType<typeof ScimGroup.class>;

/**
 * One member of one SCIM group (RFC 7643 section 4.2 `members`): the user id. Unique per group; the
 * (groupId, userId) index answers a membership check and lists a group's members in user id order, the
 * (orgId, userId) index finds a user's groups (scim-group-members.ts).
 */
export const ScimGroupMember = defineEntity({
  name: 'ScimGroupMember',
  tableName: 'scim_group_members',
  uniques: [{ name: 'scim_group_members_group_user', properties: ['groupId', 'userId'] }],
  indexes: [{ name: 'scim_group_members_org_user', properties: ['orgId', 'userId', 'groupId'] }],
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36),
    groupId: p.string().length(36),
    userId: p.string().length(36),
  },
});
export type ScimGroupMemberRow = InstanceType<typeof ScimGroupMember.class>;

/**
 * One value of a provisioned user's `emails` (RFC 7643 section 4.1.2), lower-cased (emails are not caseExact,
 * RFC 7643 section 2.2), so that `emails[value eq "..."]` and `emails.value eq "..."` are one index lookup
 * instead of a read of every user's stored resource. Written with the user's link (scim-user-emails.ts).
 */
export const ScimUserEmail = defineEntity({
  name: 'ScimUserEmail',
  tableName: 'scim_user_emails',
  indexes: [
    { name: 'scim_user_emails_org_value', properties: ['orgId', 'valueKey'] },
    { name: 'scim_user_emails_link', properties: ['linkId'] },
  ],
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36),
    /** The ScimUser row. */
    linkId: p.string().length(36),
    /** The SCIM id (the user's id), what a list filter narrows to. */
    userId: p.string().length(36),
    valueKey: p.string().length(255),
  },
});
export type ScimUserEmailRow = InstanceType<typeof ScimUserEmail.class>;
