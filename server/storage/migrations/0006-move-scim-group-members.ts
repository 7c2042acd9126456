/**
 * scim_group_members holds one row per member of a SCIM group (modules/scim/scim-group-members.ts), so that a
 * membership check (`members[value eq "..."]`, RFC 7644 section 3.4.2.2) and a member added or removed by
 * PATCH are index lookups instead of a read and rewrite of the whole list. Groups written before the table
 * existed kept their member ids in the JSON column scim_groups.members: each group's ids become rows (one
 * transaction per group: its old rows deleted, the ids inserted, the column emptied), read in batches of groups
 * ordered by id. Safe to run again: a group whose column is empty is skipped, one not yet emptied is moved
 * again from scratch. Entities are named, not imported: storage does not depend on modules.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { DataMigration, MigrationContext } from './types.ts';

/** Groups read at once: a group may hold tens of thousands of ids. */
const GROUP_BATCH = 20;
const INSERT_BATCH = 1000;

interface GroupRow {
  id: string;
  orgId: string;
  legacyMembers: unknown;
}

function entity(em: EntityManager, className: string): EntityName | undefined {
  return em.getMetadata().getByClassName(className, false)?.class;
}

function memberIds(stored: unknown): string[] {
  const list = typeof stored === 'string' ? (JSON.parse(stored) as unknown) : stored;
  return Array.isArray(list) ? [...new Set(list.filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 36))] : [];
}

async function moveScimGroupMembers(ctx: MigrationContext): Promise<void> {
  const ScimGroup = entity(ctx.em, 'ScimGroup');
  const ScimGroupMember = entity(ctx.em, 'ScimGroupMember');
  if (!ScimGroup || !ScimGroupMember) return;
  let after = '';
  let moved = 0;
  for (;;) {
    const em = ctx.em.fork();
    const groups = (await em.find(ScimGroup, { id: { $gt: after } } as never, { orderBy: { id: 'asc' } as never, limit: GROUP_BATCH, fields: ['id', 'orgId', 'legacyMembers'] as never })) as unknown as GroupRow[];
    if (!groups.length) break;
    for (const group of groups) {
      const ids = memberIds(group.legacyMembers);
      if (!ids.length && Array.isArray(group.legacyMembers)) continue;
      await em.fork().transactional(async (tx) => {
        await tx.nativeDelete(ScimGroupMember, { groupId: group.id } as never);
        for (let i = 0; i < ids.length; i += INSERT_BATCH) {
          await tx.insertMany(ScimGroupMember, ids.slice(i, i + INSERT_BATCH).map((userId) => ({ id: randomUUID(), orgId: group.orgId, groupId: group.id, userId })) as never);
        }
        await tx.nativeUpdate(ScimGroup, { id: group.id } as never, { legacyMembers: [] } as never);
      });
      moved += ids.length;
    }
    after = groups.at(-1)!.id;
  }
  if (moved > 0) ctx.logger.info({ members: moved }, 'SCIM group members moved to scim_group_members');
}

export const moveScimGroupMembersMigration: DataMigration = {
  id: '0006_move_scim_group_members',
  up: moveScimGroupMembers,
};
