import { defineEntity, p } from '@mikro-orm/core';

/**
 * One audit entry (docs/api-overview.md#resources-and-fields, "AuditLog": actor, action, resource, client IP, user agent, metadata). Rows
 * are never updated; the retention sweep deletes old ones (audit-retention.ts). Absent values are stored as '' so
 * the filters of `_audit_logs` compare plain strings on every driver.
 *
 * The indexes serve the filters of `_audit_logs` (docs/operations.md) with the newest-first order: each
 * filter form leads an index that ends in (created_at, id), the page's whole order, so a page is read from
 * the index in order with no sort, its ids and its count come from the index alone (audit-logs.ops.ts),
 * and a deep page skips index entries, not rows. actor + action has its own index because the two alone
 * are each too wide (a busy user, the login action); the other combinations narrow one of these ranges.
 */
export const AuditLog = defineEntity({
  name: 'AuditLog',
  tableName: 'audit_logs',
  properties: {
    id: p.string().primary().length(36),
    actorId: p.string().length(64),
    /** user | super_admin | client | anonymous */
    actorType: p.string().length(16),
    actorEmail: p.string().length(255),
    /** `admin.<operation>` or `user.<event>` (audit.ts). */
    action: p.string().length(64),
    resourceType: p.string().length(64),
    resourceId: p.string().length(255),
    /** Client IP per --trusted-proxies (docs/configuration.md), as the transport resolved it. */
    ipAddress: p.string().length(64),
    userAgent: p.string().length(512),
    /** A JSON object of ids and changed field names only; never a secret (audit.ts safeMetadata). */
    metadata: p.text(),
    createdAt: p.datetime(),
  },
  indexes: [
    { name: 'audit_logs_created_id', properties: ['createdAt', 'id'] },
    { name: 'audit_logs_actor_created_id', properties: ['actorId', 'createdAt', 'id'] },
    { name: 'audit_logs_actor_action_created_id', properties: ['actorId', 'action', 'createdAt', 'id'] },
    { name: 'audit_logs_action_created_id', properties: ['action', 'createdAt', 'id'] },
    { name: 'audit_logs_resource_type_created_id', properties: ['resourceType', 'createdAt', 'id'] },
    { name: 'audit_logs_resource_created_id', properties: ['resourceType', 'resourceId', 'createdAt', 'id'] },
  ],
});

export type AuditLogRow = InstanceType<typeof AuditLog.class>;
