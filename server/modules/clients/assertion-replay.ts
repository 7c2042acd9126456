/**
 * Single use of assertion ids (RFC 7523 section 3, item 7: the server "MAY ensure that JWTs are not replayed
 * by maintaining the set of used jti values for the length of time for which the JWT would be considered
 * valid"; OpenID Connect Core section 9: a client assertion's jti is single-use). The set is a database
 * table, so several instances behind one load balancer refuse a replay whichever of them sees it first: the
 * primary key decides between two concurrent presentations. Rows are swept once their assertion has
 * expired, at most once a minute per instance.
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { isUniqueViolation } from '../../storage/errors.ts';
import { UsedAssertion } from './trusted-issuer.entity.ts';

const SWEEP_INTERVAL_MS = 60_000;
const lastSweep = new WeakMap<object, number>();

/** Who vouched for the assertion (a client_id, or an issuer) and its jti, as one fixed-length key. */
function replayKey(scope: string, vouchedBy: string, jti: string): string {
  return createHash('sha256').update(`${scope}\n${vouchedBy}\n${jti}`).digest('hex');
}

async function sweepIfDue(em: EntityManager, owner: object, now: Date): Promise<void> {
  const last = lastSweep.get(owner) ?? 0;
  if (now.getTime() - last < SWEEP_INTERVAL_MS && last <= now.getTime()) return;
  lastSweep.set(owner, now.getTime());
  await em.nativeDelete(UsedAssertion, { expiresAt: { $lt: now } });
}

/**
 * Records the jti as used until `expiresAt`; false when it was already used by an assertion that has not
 * expired (a replay). `em` must be outside any transaction: the record has to commit even when the request
 * that made it fails afterwards. `owner` scopes the sweep schedule (the app's Deps).
 */
export async function consumeAssertionId(
  em: EntityManager, owner: object, scope: 'client' | 'issuer', vouchedBy: string, jti: string, expiresAt: Date, now: Date,
): Promise<boolean> {
  await sweepIfDue(em, owner, now);
  const id = replayKey(scope, vouchedBy, jti);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await em.insert(UsedAssertion, { id, expiresAt });
      return true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // The jti was used by an assertion that has expired since (not swept yet): that one can no longer be
      // replayed, so the id is free again. Otherwise this is a replay.
      const freed = await em.nativeDelete(UsedAssertion, { id, expiresAt: { $lt: now } });
      if (freed === 0) return false;
    }
  }
  return false;
}
