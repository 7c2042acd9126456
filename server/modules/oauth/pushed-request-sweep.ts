/**
 * The background sweep of expired pushed authorization requests (RFC 9126; pushed-requests.ts), run like the
 * token sweep (tokens/expiry-sweep.ts) by the retention sweeper of modules/audit: bounded batches of at most
 * 1,000 rows a statement, oldest expiry first through the (expires_at, id) index, on one instance of a fleet
 * at a time (its worker lease). An expired request changes no answer: openPushedRequest refuses it by its
 * expiry; the sweep only keeps a push that was never used from staying in the table.
 */
import { createRetentionWorker, pruneOldest, type RetentionOptions, type RetentionTask, type RetentionWorker } from '../audit/index.ts';
import { PushedAuthorizationRequest } from './pushed-request.entity.ts';

export const expiredPushedRequestsTask: RetentionTask = {
  name: 'oauth_pushed_requests',
  retentionDays: () => 0,
  cutoffAt: (now) => now,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, PushedAuthorizationRequest, 'expiresAt', cutoff, limit, after),
};

/** Every ten minutes, the first run ten minutes after start, as the token sweep. */
export function createPushedRequestSweepWorker(options: Partial<RetentionOptions> = {}): RetentionWorker {
  return createRetentionWorker('par-sweep', [expiredPushedRequestsTask], { intervalMs: 10 * 60_000, firstRunDelayMs: 10 * 60_000, ...options });
}
