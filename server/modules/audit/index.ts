/**
 * The audit log (docs/api-overview.md#resources-and-fields, "AuditLog"; docs/architecture.md lists `audit` among the modules): entries for every
 * admin mutation (written by the one pipeline, admin-audit.ts) and for the security events of users (audit.ts,
 * called from the handlers), and the `_audit_logs` admin query.
 */
import { defineModule } from '../manifest.ts';
import { AuditLog } from './audit-log.entity.ts';
import { auditLogsOp } from './audit-logs.ops.ts';

export { AuditLog, type AuditLogRow } from './audit-log.entity.ts';
export { audit, auditNow, actorOf, safeMetadata, type AuditEntry, type AuditActor, type ActorType } from './audit.ts';

export const auditModule = defineModule({ name: 'audit', entities: [AuditLog], operations: [auditLogsOp] });
