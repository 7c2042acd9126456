import { defineEntity, p } from '@mikro-orm/core';

/**
 * The jti of a DPoP proof already presented (RFC 9449 section 11.1: the server keeps the jti values of the
 * proofs it accepted for as long as their iat is within its window, and refuses a second presentation).
 * A table, so every instance on the database refuses a replay whichever of them saw the proof first
 * (storage/single-use.ts decides between two concurrent presentations by the primary key). Kept apart from
 * the client assertions' ledger (clients' used_assertions): a proof is a key holder's, not a client's.
 */
export const UsedDpopProof = defineEntity({
  name: 'UsedDpopProof',
  tableName: 'used_dpop_proofs',
  properties: {
    /** SHA-256 (hex) of the proof key's thumbprint and the jti, so any jti length fits one key. */
    id: p.string().primary().length(64),
    expiresAt: p.datetime().index('used_dpop_proofs_expiry'),
  },
});

export type UsedDpopProofRow = InstanceType<typeof UsedDpopProof.class>;
