/**
 * When the super-admin deletes an account (delete_user), its SCIM provisioning records go with its
 * memberships (organizations.service.ts onUserLeftAllOrganizations), in the same transaction: the links,
 * their indexed emails and the account's group memberships. A list then never counts a record it cannot show
 * (`totalResults` and `Resources` agree, RFC 7644 section 3.4.2), the userName is free again, and the groups
 * no longer list the account. A group the account leaves gets a new version (its ETag, RFC 7644 section 3.14).
 */
import { raw, type EntityManager } from '@mikro-orm/core';
import { ScimGroup, ScimGroupMember, ScimUser, ScimUserEmail } from './scim.entity.ts';

/** `orgIds`: the organizations it was a member of; a provisioned user set inactive has a link but no membership. */
export async function forgetDeletedAccount(em: EntityManager, userId: string, orgIds: readonly string[]): Promise<void> {
  const links = await em.find(ScimUser, { userId }, { fields: ['id', 'orgId'] });
  const orgs = [...new Set([...orgIds, ...links.map((l) => l.orgId)])];
  if (!orgs.length) return;
  // Each lookup by (orgId, userId): the member index (scim.entity.ts).
  const memberships = await em.find(ScimGroupMember, { orgId: { $in: orgs }, userId }, { fields: ['id', 'groupId', 'userId'] });
  const mine = memberships.filter((m) => m.userId === userId);
  const groupIds = [...new Set(mine.map((m) => m.groupId))];
  for (let i = 0; i < groupIds.length; i += 500) {
    await em.nativeUpdate(ScimGroup, { id: { $in: groupIds.slice(i, i + 500) } }, { version: raw('version + 1') } as never);
  }
  for (let i = 0; i < mine.length; i += 500) await em.nativeDelete(ScimGroupMember, { id: { $in: mine.slice(i, i + 500).map((m) => m.id) } });
  if (!links.length) return;
  await em.nativeDelete(ScimUserEmail, { linkId: { $in: links.map((l) => l.id) } });
  await em.nativeDelete(ScimUser, { id: { $in: links.map((l) => l.id) } });
}
