/**
 * `_audit_logs` (docs/operations.md; docs/api-overview.md#resources-and-fields, "AuditLog" and the `_audit_logs` request): filters by
 * actor, action, resource type and id, and a time window in Unix seconds with inclusive bounds; paginated,
 * newest first. Entries are written by audit.ts and by the one pipeline (admin-audit.ts).
 */
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { defineOperation } from '../../ops/define.ts';
import { s } from '../../ops/schema.ts';
import { Pagination, PaginationRequest, pageOf, paginationOf, type Page } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { unixSeconds } from '../users/index.ts';
import { AuditLog, type AuditLogRow } from './audit-log.entity.ts';

export const AuditLogSchema = s.object('AuditLog', {
  id: s.string(),
  actor_id: s.string(),
  actor_type: s.string(),
  actor_email: s.string(),
  action: s.string(),
  resource_type: s.string(),
  resource_id: s.string(),
  ip_address: s.string(),
  user_agent: s.string(),
  metadata: s.string({ description: 'a JSON object: ids and names of changed fields, never a secret' }),
  created_at: s.int64(),
});

const AuditLogs = s.object('AuditLogs', { audit_logs: s.list(AuditLogSchema), pagination: Pagination });

const AuditLogsRequest = s.object('AuditLogsRequest', {
  pagination: s.optional(PaginationRequest),
  actor_id: s.optional(s.string({ maxLength: 64 })),
  action: s.optional(s.string({ maxLength: 64 })),
  resource_type: s.optional(s.string({ maxLength: 64 })),
  resource_id: s.optional(s.string({ maxLength: 255 })),
  from_timestamp: s.optional(s.int64({ description: 'Unix seconds, inclusive' })),
  to_timestamp: s.optional(s.int64({ description: 'Unix seconds, inclusive' })),
});

/** Year 1 to 9999: beyond that a Date is invalid and the driver would fail with an internal error. */
const MAX_SECONDS = 253_402_300_799;

function dateOf(seconds: number, field: string, endOfSecond: boolean): Date {
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_SECONDS) {
    throw AppError.invalid(`${field}: expected Unix seconds between 0 and ${MAX_SECONDS}`);
  }
  // Rows keep milliseconds (storage/types.ts rule 5): an inclusive upper bound covers its whole second.
  return new Date(seconds * 1000 + (endOfSecond ? 999 : 0));
}

function toPublic(row: AuditLogRow) {
  return {
    id: row.id,
    actor_id: row.actorId,
    actor_type: row.actorType,
    actor_email: row.actorEmail,
    action: row.action,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    ip_address: row.ipAddress,
    user_agent: row.userAgent,
    metadata: row.metadata,
    created_at: unixSeconds(row.createdAt)!,
  };
}

/** Newest first; the id breaks ties so that pages neither repeat nor skip rows. */
const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;

/**
 * One page and the total, as ops/pagination.ts paginate answers, from index-only reads: first the page's ids
 * (every filter index ends in the order's columns, audit-log.entity.ts, so a deep offset skips index entries
 * rather than whole rows), then those rows by primary key beside the count. A page shorter than its limit
 * is the last one, so its total is known without counting: only a full page, or an empty one past the
 * first, pays for the count, which reads every matching index entry.
 */
async function auditPage(em: EntityManager, where: FilterQuery<AuditLogRow>, request: Parameters<typeof pageOf>[0]): Promise<Page<AuditLogRow>> {
  const window = pageOf(request);
  const page = await em.find(AuditLog, where, { fields: ['id'], orderBy: NEWEST_FIRST, limit: window.limit, offset: window.offset, disableIdentityMap: true });
  const ids = page.map((row) => row.id);
  const lastPage = ids.length < window.limit && (ids.length > 0 || window.offset === 0);
  const [items, total] = await Promise.all([
    ids.length === 0 ? [] : em.find(AuditLog, { id: { $in: ids } }, { orderBy: NEWEST_FIRST, disableIdentityMap: true }),
    lastPage ? window.offset + ids.length : em.count(AuditLog, where),
  ]);
  return { items, pagination: paginationOf(window, total) };
}

export const auditLogsOp = defineOperation({
  name: 'audit_logs',
  admin: true,
  kind: 'query',
  description: 'Lists audit entries, newest first, filtered by actor, action, resource and an inclusive time window (Unix seconds)',
  input: AuditLogsRequest,
  output: AuditLogs,
  auth: 'admin',
  handler: async (input, ctx) => {
    const where: FilterQuery<AuditLogRow> = {};
    if (input.actor_id) where.actorId = input.actor_id;
    if (input.action) where.action = input.action;
    if (input.resource_type) where.resourceType = input.resource_type;
    if (input.resource_id) where.resourceId = input.resource_id;
    const createdAt: { $gte?: Date; $lte?: Date } = {};
    if (input.from_timestamp !== undefined) createdAt.$gte = dateOf(input.from_timestamp, 'from_timestamp', false);
    if (input.to_timestamp !== undefined) createdAt.$lte = dateOf(input.to_timestamp, 'to_timestamp', true);
    if (createdAt.$gte && createdAt.$lte && createdAt.$gte > createdAt.$lte) {
      throw AppError.invalid('from_timestamp must not be after to_timestamp');
    }
    if (createdAt.$gte || createdAt.$lte) where.createdAt = createdAt;
    const page = await auditPage(ctx.em, where, input.pagination);
    return { audit_logs: page.items.map(toPublic), pagination: page.pagination };
  },
});
