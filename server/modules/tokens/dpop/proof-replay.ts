/**
 * Single use of DPoP proofs (RFC 9449 section 11.1): a proof's jti is recorded, per proof key, until its iat
 * leaves the acceptance window (proof.ts DPOP_PROOF_WINDOW_SECONDS); a second presentation within the window
 * is a replay. The ledger is a database table (used-proof.entity.ts), so the refusal holds across instances.
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { useOnce } from '../../../storage/single-use.ts';
import { UsedDpopProof } from './used-proof.entity.ts';

function replayKey(jkt: string, jti: string): string {
  return createHash('sha256').update(`dpop\n${jkt}\n${jti}`).digest('hex');
}

/**
 * Records the proof's jti as used until `expiresAt`; false when it was already used (a replay). `em` must be
 * outside any transaction (storage/single-use.ts): the record commits even when the request fails later.
 * `owner` scopes the sweep schedule (the app's Deps).
 */
export function consumeDpopProofId(em: EntityManager, owner: object, jkt: string, jti: string, expiresAt: Date, now: Date): Promise<boolean> {
  return useOnce(em, UsedDpopProof, { id: replayKey(jkt, jti), expiresAt }, now, owner);
}
