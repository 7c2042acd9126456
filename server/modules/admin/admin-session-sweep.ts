/**
 * The background sweep of expired super-admin sessions (docs/configuration.md#retention), run like the
 * token sweep (tokens/expiry-sweep.ts) by the retention sweeper of modules/audit: bounded batches of at most
 * 1,000 rows a statement, oldest expiry first through the (expires_at, id) index, on one instance of a fleet
 * at a time (its worker lease). An expired row changes no answer: liveSession refuses it by its expiry
 * (admin.service.ts), so logins and renewals no longer delete expired rows themselves in one unbounded statement.
 */
import { createRetentionWorker, pruneOldest, type RetentionOptions, type RetentionTask, type RetentionWorker } from '../audit/index.ts';
import { AdminSession } from './admin-session.entity.ts';

export const expiredAdminSessionsTask: RetentionTask = {
  name: 'admin_sessions',
  retentionDays: () => 0,
  cutoffAt: (now) => now,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, AdminSession, 'expiresAt', cutoff, limit, after),
};

/** Every ten minutes, the first run ten minutes after start, as the token sweep. */
export function createAdminSessionSweepWorker(options: Partial<RetentionOptions> = {}): RetentionWorker {
  return createRetentionWorker('admin-session-sweep', [expiredAdminSessionsTask], { intervalMs: 10 * 60_000, firstRunDelayMs: 10 * 60_000, ...options });
}
