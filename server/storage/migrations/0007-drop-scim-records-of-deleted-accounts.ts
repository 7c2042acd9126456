/**
 * Before delete_user took an account's SCIM records with it (modules/scim/scim-deleted-accounts.ts), a deleted
 * account's provisioning link stayed behind: counted by a list's `totalResults` but never shown in its
 * `Resources` (RFC 7644 section 3.4.2 wants the two to agree). This removes every link whose account no
 * longer exists, with its indexed emails and the account's group memberships in that organization, reading
 * the links in batches ordered by id. Safe to run again: what it removes is gone. Entities are named, not
 * imported: storage does not depend on modules.
 */
import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { DataMigration, MigrationContext } from './types.ts';

const BATCH = 500;

interface LinkRow {
  id: string;
  orgId: string;
  userId: string;
}

function entity(em: EntityManager, className: string): EntityName | undefined {
  return em.getMetadata().getByClassName(className, false)?.class;
}

async function dropScimRecordsOfDeletedAccounts(ctx: MigrationContext): Promise<void> {
  const [User, ScimUser, ScimUserEmail, ScimGroupMember] = ['User', 'ScimUser', 'ScimUserEmail', 'ScimGroupMember'].map((name) => entity(ctx.em, name));
  if (!User || !ScimUser || !ScimUserEmail || !ScimGroupMember) return;
  let after = '';
  let dropped = 0;
  for (;;) {
    const em = ctx.em.fork();
    const links = (await em.find(ScimUser, { id: { $gt: after } } as never, { orderBy: { id: 'asc' } as never, limit: BATCH, fields: ['id', 'orgId', 'userId'] as never })) as unknown as LinkRow[];
    if (!links.length) break;
    after = links.at(-1)!.id;
    const existing = new Set(((await em.find(User, { id: { $in: links.map((l) => l.userId) } } as never, { fields: ['id'] as never })) as unknown as Array<{ id: string }>).map((u) => u.id));
    const orphans = links.filter((l) => !existing.has(l.userId));
    if (!orphans.length) continue;
    await em.transactional(async (tx) => {
      for (const link of orphans) await tx.nativeDelete(ScimGroupMember, { orgId: link.orgId, userId: link.userId } as never);
      await tx.nativeDelete(ScimUserEmail, { linkId: { $in: orphans.map((l) => l.id) } } as never);
      await tx.nativeDelete(ScimUser, { id: { $in: orphans.map((l) => l.id) } } as never);
    });
    dropped += orphans.length;
  }
  if (dropped > 0) ctx.logger.info({ links: dropped }, 'SCIM records of deleted accounts removed');
}

export const dropScimRecordsOfDeletedAccountsMigration: DataMigration = {
  id: '0007_drop_scim_records_of_deleted_accounts',
  up: dropScimRecordsOfDeletedAccounts,
};
