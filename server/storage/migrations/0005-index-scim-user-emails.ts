/**
 * scim_user_emails holds the lower-cased `emails` values of each SCIM user (modules/scim/scim-user-emails.ts),
 * so that a list filtered by `emails[value eq "..."]` is an index lookup (RFC 7644 section 3.4.2.2; emails are
 * not caseExact, RFC 7643 section 2.2). Users provisioned before the table existed get their rows here, read
 * from each link's stored resource in batches ordered by id. Safe to run again: a batch's rows are deleted
 * before they are written. Entities are named, not imported: storage does not depend on modules.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { DataMigration, MigrationContext } from './types.ts';

const BATCH = 500;
/** The column's length (modules/scim/scim-user-emails.ts MAX_INDEXED_EMAIL). */
const MAX_INDEXED_EMAIL = 255;

interface LinkRow {
  id: string;
  orgId: string;
  userId: string;
  resource: Record<string, unknown>;
}

function entity(em: EntityManager, className: string): EntityName | undefined {
  return em.getMetadata().getByClassName(className, false)?.class;
}

function emailKeys(resource: Record<string, unknown>): string[] {
  const emails = Array.isArray(resource?.emails) ? (resource.emails as Array<Record<string, unknown>>) : [];
  const keys = emails.map((e) => (typeof e?.value === 'string' ? e.value.toLowerCase() : '')).filter((v) => v && v.length <= MAX_INDEXED_EMAIL);
  return [...new Set(keys)];
}

async function indexScimUserEmails(ctx: MigrationContext): Promise<void> {
  const ScimUser = entity(ctx.em, 'ScimUser');
  const ScimUserEmail = entity(ctx.em, 'ScimUserEmail');
  if (!ScimUser || !ScimUserEmail) return;
  let after = '';
  let indexed = 0;
  for (;;) {
    const em = ctx.em.fork();
    const links = (await em.find(ScimUser, { id: { $gt: after } } as never, { orderBy: { id: 'asc' } as never, limit: BATCH, fields: ['id', 'orgId', 'userId', 'resource'] as never })) as unknown as LinkRow[];
    if (!links.length) break;
    await em.transactional(async (tx) => {
      await tx.nativeDelete(ScimUserEmail, { linkId: { $in: links.map((l) => l.id) } } as never);
      const rows = links.flatMap((l) => emailKeys(l.resource).map((valueKey) => ({ id: randomUUID(), orgId: l.orgId, linkId: l.id, userId: l.userId, valueKey })));
      if (rows.length) await tx.insertMany(ScimUserEmail, rows as never);
      indexed += rows.length;
    });
    after = links.at(-1)!.id;
  }
  if (indexed > 0) ctx.logger.info({ emails: indexed }, 'SCIM user emails indexed');
}

export const indexScimUserEmailsMigration: DataMigration = {
  id: '0005_index_scim_user_emails',
  up: indexScimUserEmails,
};
