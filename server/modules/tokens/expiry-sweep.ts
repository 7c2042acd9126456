/**
 * The background sweep of expired token records and sessions (docs/configuration.md#retention), run by the
 * retention sweeper of modules/audit: bounded batches of at most 1,000 rows, oldest expiry first through the
 * (expires_at, id) index, a pause between batches, on one instance of a fleet at a time (its worker lease).
 *
 * Deleting an expired row changes no answer (docs/tokens.md#tokens-are-stateful): its token is refused by its
 * own expiry with or without the row. Nothing unexpired is touched, so a revoked record whose token has not
 * expired yet stays and keeps refusing it (a reused refresh token is recognised by its rotated record). A
 * session whose cookie has expired stays while a token record issued for it has not expired: a refresh chain
 * outlives the cookie (docs/tokens.md#lifetimes) and its session is what a revoke_session revokes.
 */
import {
  createRetentionWorker, pruneOldest, type RetentionOptions, type RetentionTask, type RetentionWorker,
} from '../audit/index.ts';
import { Session } from '../sessions/index.ts';
import { TokenRecord } from './token-record.entity.ts';
import { sessionsWithLiveRecords } from './token-records.ts';

/** Rows are deleted once expired, whatever the retention flags. */
const atNow = (now: Date) => now;

export const expiredTokenRecordsTask: RetentionTask = {
  name: 'token_records',
  retentionDays: () => 0,
  cutoffAt: atNow,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, TokenRecord, 'expiresAt', cutoff, limit, after),
};

export const expiredSessionsTask: RetentionTask = {
  name: 'sessions',
  retentionDays: () => 0,
  cutoffAt: atNow,
  pruneBatch: (em, cutoff, limit, after) =>
    pruneOldest(em, Session, 'expiresAt', cutoff, limit, after, (ids) => sessionsWithLiveRecords(em, [...ids], cutoff)),
};

/**
 * Every ten minutes, the first run ten minutes after start: rows expire on the scale of minutes (30-minute
 * access tokens) to days, and a sweep that finds nothing costs one indexed read per table.
 */
export const EXPIRY_SWEEP_OPTIONS: Partial<RetentionOptions> = { intervalMs: 10 * 60_000, firstRunDelayMs: 10 * 60_000 };

export function createExpirySweepWorker(options: Partial<RetentionOptions> = {}): RetentionWorker {
  return createRetentionWorker('expiry-sweep', [expiredTokenRecordsTask, expiredSessionsTask], { ...EXPIRY_SWEEP_OPTIONS, ...options });
}
