/**
 * The background sweep of expired MFA challenges (docs/configuration.md#retention), run like the token sweep
 * (tokens/expiry-sweep.ts) by the retention sweeper of modules/audit: bounded batches of at most 1,000 rows a
 * statement, oldest expiry first through the (expires_at, id) index, on one instance of a fleet at a time
 * (its worker lease). An expired challenge changes no answer: liveChallenge and callerChallenge refuse it by
 * its expiry (mfa-challenge.ts), so a login no longer deletes every expired one in one unbounded statement.
 */
import { createRetentionWorker, pruneOldest, type RetentionOptions, type RetentionTask, type RetentionWorker } from '../audit/index.ts';
import { MfaChallenge } from './mfa-challenge.entity.ts';

export const expiredMfaChallengesTask: RetentionTask = {
  name: 'mfa_challenges',
  retentionDays: () => 0,
  cutoffAt: (now) => now,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, MfaChallenge, 'expiresAt', cutoff, limit, after),
};

/** Every ten minutes, the first run ten minutes after start, as the token sweep. */
export function createMfaChallengeSweepWorker(options: Partial<RetentionOptions> = {}): RetentionWorker {
  return createRetentionWorker('mfa-challenge-sweep', [expiredMfaChallengesTask], { intervalMs: 10 * 60_000, firstRunDelayMs: 10 * 60_000, ...options });
}
