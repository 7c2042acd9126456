/**
 * The background sweep of expired SAML sign-in requests waiting for the browser (docs/configuration.md#retention),
 * run like the token sweep (tokens/expiry-sweep.ts) by the retention sweeper of modules/audit: bounded batches
 * of at most 1,000 rows a statement, oldest expiry first through the (expires_at, id) index, on one instance
 * of a fleet at a time (its worker lease). An expired row changes no answer: takePendingLogin refuses it by
 * its expiry (pending-logins.ts), so opening one no longer deletes every expired one in one unbounded statement.
 */
import { createRetentionWorker, pruneOldest, type RetentionOptions, type RetentionTask, type RetentionWorker } from '../audit/index.ts';
import { SamlIdpPendingLogin } from './sso-state.entities.ts';

export const expiredSamlPendingLoginsTask: RetentionTask = {
  name: 'saml_idp_pending_logins',
  retentionDays: () => 0,
  cutoffAt: (now) => now,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, SamlIdpPendingLogin, 'expiresAt', cutoff, limit, after),
};

/** Every ten minutes, the first run ten minutes after start, as the token sweep. */
export function createSamlPendingLoginSweepWorker(options: Partial<RetentionOptions> = {}): RetentionWorker {
  return createRetentionWorker('saml-pending-login-sweep', [expiredSamlPendingLoginsTask], { intervalMs: 10 * 60_000, firstRunDelayMs: 10 * 60_000, ...options });
}
