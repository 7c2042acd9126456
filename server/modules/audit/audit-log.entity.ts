import { defineEntity, p } from '@mikro-orm/core';

/**
 * One audit entry (docs/api-overview.md#resources-and-fields, "AuditLog": actor, action, resource, client IP, user agent, metadata). Rows
 * are only ever inserted: nothing in the server updates or deletes them. Absent values are stored as '' so
 * the filters of `_audit_logs` compare plain strings on every driver.
 *
 * The indexes serve the filters of `_audit_logs` (docs/operations.md) with the newest-first order:
 * each filter column leads an index that ends in created_at, so a filtered page is an index range scan.
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
    { name: 'audit_logs_created', properties: ['createdAt'] },
    { name: 'audit_logs_actor_created', properties: ['actorId', 'createdAt'] },
    { name: 'audit_logs_action_created', properties: ['action', 'createdAt'] },
    { name: 'audit_logs_resource_created', properties: ['resourceType', 'resourceId', 'createdAt'] },
  ],
});

export type AuditLogRow = InstanceType<typeof AuditLog.class>;
