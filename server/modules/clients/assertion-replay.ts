/**
 * Single use of assertion ids (RFC 7523 section 3, item 7: the server "MAY ensure that JWTs are not replayed
 * by maintaining the set of used jti values for the length of time for which the JWT would be considered
 * valid"; OpenID Connect Core section 9: a client assertion's jti is single-use). The set is a database
 * table, so several instances behind one load balancer refuse a replay whichever of them sees it first: the
 * primary key decides between two concurrent presentations (storage/single-use.ts).
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { useOnce } from '../../storage/single-use.ts';
import { UsedAssertion } from './trusted-issuer.entity.ts';

/** Who vouched for the assertion (a client_id, or an issuer) and its jti, as one fixed-length key. */
function replayKey(scope: string, vouchedBy: string, jti: string): string {
  return createHash('sha256').update(`${scope}\n${vouchedBy}\n${jti}`).digest('hex');
}

/**
 * Records the jti as used until `expiresAt`; false when it was already used by an assertion that has not
 * expired (a replay). `em` must be outside any transaction (storage/single-use.ts). `owner` scopes the
 * sweep schedule (the app's Deps).
 */
export function consumeAssertionId(
  em: EntityManager, owner: object, scope: 'client' | 'issuer', vouchedBy: string, jti: string, expiresAt: Date, now: Date,
): Promise<boolean> {
  return useOnce(em, UsedAssertion, { id: replayKey(scope, vouchedBy, jti), expiresAt }, now, owner);
}
