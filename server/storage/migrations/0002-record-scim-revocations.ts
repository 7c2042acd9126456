/**
 * users.revoked_by records who revoked an account's access, so that an organization's SCIM provider lifts only
 * its own revocation (modules/scim/scim-users.service.ts). Accounts revoked before the column existed have no
 * record: this marks as SCIM's those a provider still holds inactive (a governed link with `active` false)
 * and that nobody revoked again after the provider's last write to that link (the account's revokedAt is not
 * later than the link's updatedAt; one second of slack for the two clock readings of one request and for
 * engines that keep whole seconds). Every other revoked account stays unmarked, which counts as the
 * administrator's: only enable_access lifts it. A misread case (the administrator revoked after the
 * provider's deactivation and the provider wrote the link again later) is no worse than before the column,
 * when SCIM lifted any revocation. Entities are named, not imported: storage does not depend on modules.
 */
import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { DataMigration, MigrationContext } from './types.ts';

const SLACK_MS = 1000;
const CHUNK = 500;

interface LinkRow {
  userId: string;
  updatedAt: Date;
}

interface RevokedUserRow {
  id: string;
  revokedAt: Date | null;
  revokedBy: string | null;
}

/** The entity registered under `className`, if this storage has it. */
function entity(em: EntityManager, className: string): EntityName | undefined {
  return em.getMetadata().getByClassName(className, false)?.class;
}

async function markScimRevocations(ctx: MigrationContext): Promise<void> {
  const { em } = ctx;
  const User = entity(em, 'User');
  const ScimUser = entity(em, 'ScimUser');
  if (!User || !ScimUser) return;
  const links = (await em.find(ScimUser, { active: false, managesAccount: true }, { fields: ['userId', 'updatedAt'] as never })) as unknown as LinkRow[];
  const lastWrite = new Map<string, number>();
  for (const link of links) lastWrite.set(link.userId, Math.max(lastWrite.get(link.userId) ?? 0, new Date(link.updatedAt).getTime()));
  const ids = [...lastWrite.keys()];
  let marked = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const users = (await em.find(User, { id: { $in: ids.slice(i, i + CHUNK) }, revokedAt: { $ne: null }, revokedBy: null })) as unknown as RevokedUserRow[];
    for (const user of users) {
      if (new Date(user.revokedAt!).getTime() > lastWrite.get(user.id)! + SLACK_MS) continue;
      user.revokedBy = 'scim';
      marked += 1;
    }
    await em.flush();
  }
  if (marked > 0) ctx.logger.info({ accounts: marked }, "revocations made by SCIM recorded as SCIM's");
}

export const recordScimRevocations: DataMigration = {
  id: '0002_record_scim_revocations',
  up: markScimRevocations,
};
