/**
 * Groups drive org roles: a provisioned group's displayName is an org role its members hold in
 * OrgMember.roles (docs/api-overview.md#resources-and-fields: members carry org roles). Joining a group adds the role, leaving it
 * removes it, renaming the group renames the role of its members. A user who is not (or no longer) a member
 * of the organization is skipped: membership comes from provisioning the user, never from a group.
 */
import type { EntityManager } from '@mikro-orm/core';
import { OrgMember } from '../organizations/index.ts';

const CHUNK = 500;

async function membersOf(em: EntityManager, orgId: string, userIds: readonly string[]) {
  const rows = [];
  for (let i = 0; i < userIds.length; i += CHUNK) rows.push(...(await em.find(OrgMember, { orgId, userId: { $in: userIds.slice(i, i + CHUNK) } })));
  return rows;
}

/** The ids among `userIds` that are members of the organization. */
export async function memberIdsAmong(em: EntityManager, orgId: string, userIds: readonly string[]): Promise<Set<string>> {
  return new Set((await membersOf(em, orgId, userIds)).map((m) => m.userId));
}

export async function changeRoles(
  em: EntityManager,
  now: Date,
  orgId: string,
  change: { add?: { role: string; userIds: readonly string[] }; remove?: { role: string; userIds: readonly string[] } },
): Promise<void> {
  const ids = [...new Set([...(change.add?.userIds ?? []), ...(change.remove?.userIds ?? [])])];
  if (!ids.length) return;
  const adding = new Set(change.add?.userIds ?? []);
  const removing = new Set(change.remove?.userIds ?? []);
  for (const member of await membersOf(em, orgId, ids)) {
    let roles = [...member.roles];
    if (removing.has(member.userId) && change.remove) roles = roles.filter((r) => r !== change.remove!.role);
    if (adding.has(member.userId) && change.add && !roles.includes(change.add.role)) roles.push(change.add.role);
    if (roles.length !== member.roles.length || roles.some((r, i) => r !== member.roles[i])) {
      member.roles = roles;
      member.updatedAt = now;
    }
  }
}
