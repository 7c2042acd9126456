/**
 * The stored side of issued tokens: a row per token keyed by its hash, so a token is honoured only while
 * its row exists and is neither revoked nor (for refresh tokens) already exchanged.
 */
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { sha256Hex } from '../../kernel/crypto.ts';
import { TokenRecord, type TokenKind, type TokenRecordRow } from './token-record.entity.ts';

export interface NewTokenRecord {
  token: string;
  kind: TokenKind;
  userId: string;
  sessionId: string;
  familyId: string | null;
  expiresAt: Date;
}

/** Queues the record in the unit of work; the caller flushes. */
export function recordToken(em: EntityManager, record: NewTokenRecord): void {
  em.create(TokenRecord, {
    id: sha256Hex(record.token),
    kind: record.kind,
    userId: record.userId,
    sessionId: record.sessionId,
    familyId: record.familyId,
    expiresAt: record.expiresAt,
    revokedAt: null,
    rotatedAt: null,
  });
}

export function findTokenRecord(em: EntityManager, token: string): Promise<TokenRecordRow | null> {
  return em.findOne(TokenRecord, { id: sha256Hex(token) });
}

/** A record that still lets its token through (expiry is checked on the token's own exp claim too). */
export function recordIsLive<R extends Pick<TokenRecordRow, 'revokedAt' | 'expiresAt'>>(record: R | null, now: Date): record is R {
  return record !== null && record.revokedAt == null && record.expiresAt.getTime() > now.getTime();
}

/** `keepSession` spares the tokens of one session of the user. */
type RecordFilter = { sessionId: string } | { familyId: string } | { userId: string; keepSession?: string } | { id: string };

/** Revokes every not yet revoked record matching the filter; answers how many were revoked. */
export function revokeTokenRecords(em: EntityManager, now: Date, filter: RecordFilter): Promise<number> {
  const where = 'keepSession' in filter && filter.keepSession ? { userId: filter.userId, sessionId: { $ne: filter.keepSession } } : filter;
  return em.nativeUpdate(TokenRecord, { ...where, revokedAt: null } as FilterQuery<TokenRecordRow>, { revokedAt: now });
}

/**
 * Marks a refresh token as exchanged, atomically: the update only matches a row that is neither rotated nor
 * revoked, so of two concurrent exchanges of one token exactly one wins and the other is treated as reuse.
 */
export async function claimRefreshRotation(em: EntityManager, tokenHash: string, now: Date): Promise<boolean> {
  const updated = await em.nativeUpdate(
    TokenRecord,
    { id: tokenHash, kind: 'refresh', rotatedAt: null, revokedAt: null },
    { rotatedAt: now },
  );
  return updated === 1;
}

export function deleteTokenRecordsOfUser(em: EntityManager, userId: string): Promise<number> {
  return em.nativeDelete(TokenRecord, { userId });
}

/** Session ids that still have a record whose token has not expired (a live refresh chain keeps its session). */
export async function sessionsWithLiveRecords(em: EntityManager, sessionIds: string[], now: Date): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await em.find(TokenRecord, { sessionId: { $in: sessionIds }, expiresAt: { $gt: now } }, { fields: ['id', 'sessionId'], disableIdentityMap: true });
  return new Set(rows.map((row) => row.sessionId));
}
