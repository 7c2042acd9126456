/**
 * The members of SCIM groups (RFC 7643 section 4.2), one ScimGroupMember row each, so that what providers do
 * most on a large group runs on an index: Entra ID's membership check (`id eq "G" and members[value eq "U"]`,
 * scim-db-filter.ts), a member added or removed by PATCH (scim-group-patch.ts), and the groups of one user
 * (its deletion and reactivation, scim-users.service.ts). A group's whole list is read only when it is asked
 * for: a representation that shows `members` (RFC 7644 section 3.9), a rename or a deletion (the org role
 * of every member changes, scim-group-roles.ts).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { ScimGroupMember } from './scim.entity.ts';

const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * The group's member ids in user id order (the unique index's order). Read past the identity map: a list
 * of many thousand ids is data for the answer, not entities this request changes.
 */
export async function memberIdsOf(em: EntityManager, groupId: string): Promise<string[]> {
  const rows = await em.find(ScimGroupMember, { groupId }, { fields: ['userId'], orderBy: { userId: 'asc' }, disableIdentityMap: true });
  return rows.map((r) => r.userId);
}

/** Whether the group has more than `count` members: one index entry looked up past the first `count`. */
export async function hasMoreMembersThan(em: EntityManager, groupId: string, count: number): Promise<boolean> {
  const rows = await em.find(ScimGroupMember, { groupId }, { fields: ['id'], orderBy: { userId: 'asc' }, offset: count, limit: 1, disableIdentityMap: true });
  return rows.length > 0;
}

/** The member ids of each of `groupIds`, for a list page that shows members. */
export async function memberIdsByGroup(em: EntityManager, groupIds: readonly string[]): Promise<Map<string, string[]>> {
  const byGroup = new Map<string, string[]>(groupIds.map((id) => [id, []]));
  for (const part of chunks(groupIds)) {
    const rows = await em.find(ScimGroupMember, { groupId: { $in: part } }, { fields: ['groupId', 'userId'], orderBy: { groupId: 'asc', userId: 'asc' }, disableIdentityMap: true });
    for (const row of rows) byGroup.get(row.groupId)?.push(row.userId);
  }
  return byGroup;
}

/**
 * The ids of the organization's groups `userId` is a member of. Ids are compared exactly (`value` is
 * caseExact, RFC 7643 section 4.2), also where the database folds case (MySQL and MariaDB collations).
 */
export async function groupIdsWithMember(em: EntityManager, orgId: string, userId: string): Promise<string[]> {
  const rows = await em.find(ScimGroupMember, { orgId, userId }, { fields: ['groupId', 'userId'], disableIdentityMap: true });
  return rows.filter((r) => r.userId === userId).map((r) => r.groupId);
}

/** Which of `userIds` are members of the group already. */
export async function membersAmong(em: EntityManager, groupId: string, userIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(userIds)) {
    for (const row of await em.find(ScimGroupMember, { groupId, userId: { $in: part } }, { fields: ['userId'], disableIdentityMap: true })) found.add(row.userId);
  }
  return found;
}

/** Adds members the group does not hold yet (the caller checked which; the unique index is the last word). */
export async function insertMembers(em: EntityManager, orgId: string, groupId: string, userIds: readonly string[]): Promise<void> {
  for (const part of chunks(userIds)) {
    await em.insertMany(ScimGroupMember, part.map((userId) => ({ id: randomUUID(), orgId, groupId, userId })));
  }
}

export async function deleteMembers(em: EntityManager, groupId: string, userIds: readonly string[]): Promise<void> {
  for (const part of chunks(userIds)) await em.nativeDelete(ScimGroupMember, { groupId, userId: { $in: part } });
}

export async function deleteAllMembers(em: EntityManager, groupId: string): Promise<void> {
  await em.nativeDelete(ScimGroupMember, { groupId });
}

/** Takes the user out of every group of the organization (SCIM DELETE of the user). */
export async function deleteMemberships(em: EntityManager, orgId: string, userId: string): Promise<void> {
  await em.nativeDelete(ScimGroupMember, { orgId, userId });
}
