/**
 * The audit log (docs/api-overview.md#resources-and-fields, "AuditLog"; docs/architecture.md lists `audit` among the modules): entries for every
 * admin mutation (written by the one pipeline, admin-audit.ts) and for the security events of users (audit.ts,
 * called from the handlers), and the `_audit_logs` admin query.
 */
import { defineModule, defineWorker } from '../manifest.ts';
import { AuditLog } from './audit-log.entity.ts';
import { auditLogsOp } from './audit-logs.ops.ts';
import { WorkerLease } from './worker-lease.entity.ts';
import { createAuditRetentionWorker } from './audit-retention.ts';
import type { RetentionOptions, RetentionWorker } from './retention-sweeper.ts';

export { AuditLog, type AuditLogRow } from './audit-log.entity.ts';
export { audit, auditNow, actorOf, safeMetadata, type AuditEntry, type AuditActor, type ActorType } from './audit.ts';

export { erasedUserPseudonym, pseudonymiseAuditEntries, type ErasedIdentity } from './erased-user.ts';
export { auditEntriesAbout, type AuditEntriesAbout, type AuditEntryAbout } from './entries-about.ts';

export { WorkerLease, type WorkerLeaseRow } from './worker-lease.entity.ts';
export { auditRetentionTask, createAuditRetentionWorker } from './audit-retention.ts';
export {
  createRetentionWorker, pruneOldest, DEFAULT_RETENTION_OPTIONS,
  type RetentionTask, type RetentionOptions, type RetentionWorker, type PruneBatch, type PruneCursor,
} from './retention-sweeper.ts';

export const auditModule = defineModule({
  name: 'audit',
  entities: [AuditLog, WorkerLease],
  operations: [auditLogsOp],
  // Deletes entries past --audit-retention-days in bounded batches (docs/configuration.md#retention).
  workers: [defineWorker<RetentionWorker, RetentionOptions>({ name: 'audit-retention', create: createAuditRetentionWorker })],
});
