/**
 * The background sweep of expired verification requests (emailed links) and one-time codes
 * (docs/configuration.md#retention), which were otherwise deleted only when replaced: run like the token
 * sweep (tokens/expiry-sweep.ts) by the retention sweeper of modules/audit, in bounded batches of at most
 * 1,000 rows a statement, oldest expiry first through each table's (expires_at, id) index, on one instance
 * of a fleet at a time (its worker lease). An expired row changes no answer: a link or code is refused by its
 * expiry (verification.service.ts, otp.service.ts).
 */
import { createRetentionWorker, pruneOldest, type RetentionOptions, type RetentionTask, type RetentionWorker } from '../audit/index.ts';
import { Otp } from './otp.entity.ts';
import { VerificationRequest } from './verification-request.entity.ts';

export const expiredVerificationRequestsTask: RetentionTask = {
  name: 'verification_requests',
  retentionDays: () => 0,
  cutoffAt: (now) => now,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, VerificationRequest, 'expiresAt', cutoff, limit, after),
};

export const expiredOtpsTask: RetentionTask = {
  name: 'otps',
  retentionDays: () => 0,
  cutoffAt: (now) => now,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, Otp, 'expiresAt', cutoff, limit, after),
};

/** Every ten minutes, the first run ten minutes after start, as the token sweep. */
export function createVerificationSweepWorker(options: Partial<RetentionOptions> = {}): RetentionWorker {
  return createRetentionWorker('verification-sweep', [expiredVerificationRequestsTask, expiredOtpsTask], { intervalMs: 10 * 60_000, firstRunDelayMs: 10 * 60_000, ...options });
}
