/**
 * The audit entries about one account, for its holder's copy of their data (docs/privacy.md#what-is-exported;
 * GDPR Art. 15(3)): the entries where the account acted and those where it was the resource acted on, newest
 * first, at most `limit` of them, through the actor and resource indexes (audit-log.entity.ts). An entry
 * where someone else acted on the account (an administrator, an organization's admin) shows what was done,
 * not who did it or from where: that person's id, address and device are their own data.
 */
import type { EntityManager } from '@mikro-orm/core';
import { AuditLog, type AuditLogRow } from './audit-log.entity.ts';

export interface AuditEntryAbout {
  action: string;
  /** actor: the account did it; subject: it was done to the account. */
  role: 'actor' | 'subject';
  actor_type: string;
  resource_type: string;
  resource_id: string;
  ip_address?: string;
  user_agent?: string;
  metadata: unknown;
  created_at: string;
}

export interface AuditEntriesAbout {
  entries: AuditEntryAbout[];
  /** More entries exist than `limit`: the oldest were left out. */
  truncated: boolean;
}

/** The resource types whose entries name an account by its id (admin-audit.ts: update_user, add_org_member...). */
const ACCOUNT_RESOURCES = ['user', 'org_member'] as const;

function parsed(metadata: string): unknown {
  try {
    return JSON.parse(metadata);
  } catch {
    return {};
  }
}

function entryOf(row: AuditLogRow, userId: string): AuditEntryAbout {
  const own = row.actorId === userId;
  return {
    action: row.action,
    role: own ? 'actor' : 'subject',
    actor_type: row.actorType,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    ...(own ? { ip_address: row.ipAddress, user_agent: row.userAgent } : {}),
    metadata: parsed(row.metadata),
    created_at: row.createdAt.toISOString(),
  };
}

export async function auditEntriesAbout(em: EntityManager, userId: string, limit: number): Promise<AuditEntriesAbout> {
  const newest = { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1 } as const;
  const acted = await em.find(AuditLog, { actorId: userId }, newest);
  // Through the (resource type, resource id) index: the admin entries that name an account by its id.
  const actedOn = await em.find(AuditLog, { resourceType: { $in: [...ACCOUNT_RESOURCES] }, resourceId: userId, actorId: { $ne: userId } }, newest);
  const rows = [...acted, ...actedOn].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  return { entries: rows.slice(0, limit).map((row) => entryOf(row, userId)), truncated: rows.length > limit };
}
