/**
 * Retention of the audit log (docs/configuration.md#retention): entries older than
 * --audit-retention-days are deleted in the background in bounded batches (retention-sweeper.ts); 0, the
 * default, keeps them forever. The batch walks the created_at index oldest first.
 */
import { AuditLog } from './audit-log.entity.ts';
import { createRetentionWorker, pruneOldest, type RetentionOptions, type RetentionTask, type RetentionWorker } from './retention-sweeper.ts';

export const auditRetentionTask: RetentionTask = {
  name: 'audit_logs',
  retentionDays: (config) => config.auditRetentionDays,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, AuditLog, 'createdAt', cutoff, limit, after),
};

export function createAuditRetentionWorker(options: Partial<RetentionOptions> = {}): RetentionWorker {
  return createRetentionWorker('audit-retention', [auditRetentionTask], options);
}
