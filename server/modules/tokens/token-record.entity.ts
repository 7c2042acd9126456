import { defineEntity, p } from '@mikro-orm/core';

/**
 * One issued access, ID or refresh token, stored only as the SHA-256 of the token string
 * (docs/tokens.md#tokens-are-stateful). Kept in the database rather than in memory so that every instance honours a
 * logout, a revocation or a detected refresh-token reuse at once (docs/architecture.md#horizontal-scale).
 */
export const TokenRecord = defineEntity({
  name: 'TokenRecord',
  tableName: 'token_records',
  properties: {
    /** sha256 hex of the token string. */
    id: p.string().primary().length(64),
    /** access | id | refresh */
    kind: p.string().length(16),
    userId: p.string().length(36).index(),
    /** The session (sessions.id) the token was issued for. */
    sessionId: p.string().length(64).index(),
    /** Refresh family: the tokens issued together with one chain of rotated refresh tokens. */
    familyId: p.string().length(64).nullable().index(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    /** Set on a refresh token when it was exchanged; presenting it again is reuse. */
    rotatedAt: p.datetime().nullable(),
  },
  // The background sweep (expiry-sweep.ts) walks every user's expired records oldest first: a seek on
  // (expiry, id) reads only the batch it deletes, however large the table.
  indexes: [{ name: 'token_records_expiry', properties: ['expiresAt', 'id'] }],
});

export type TokenRecordRow = InstanceType<typeof TokenRecord.class>;
export type TokenKind = 'access' | 'id' | 'refresh';
