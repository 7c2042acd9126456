/**
 * What the cache keeps of a row: a frozen plain copy, never the managed entity (which would keep its whole
 * unit of work alive and could be changed by whoever holds it).
 */
import type { UserRow } from '../../users/index.ts';
import type { SessionRow } from '../../sessions/index.ts';
import type { TokenRecordRow } from '../token-record.entity.ts';

/** The fields of a token record validation reads. */
export type TokenRecordState = Readonly<Pick<TokenRecordRow, 'kind' | 'userId' | 'sessionId' | 'familyId' | 'expiresAt' | 'revokedAt' | 'rotatedAt'>>;

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function plainCopy<T extends object>(row: T): T {
  // Copies, so that the unit of work the row came from (or whoever holds it) cannot change the cached values.
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    copy[key] = value instanceof Date ? new Date(value.getTime()) : structuredClone(value);
  }
  return copy as T;
}

export function recordSnapshot(record: TokenRecordRow): TokenRecordState {
  const { kind, userId, sessionId, familyId, expiresAt, revokedAt, rotatedAt } = record;
  return deepFreeze(plainCopy({ kind, userId, sessionId, familyId, expiresAt, revokedAt, rotatedAt }));
}

export function userSnapshot(user: UserRow): UserRow {
  return deepFreeze(plainCopy(user));
}

export function sessionSnapshot(session: SessionRow): SessionRow {
  return deepFreeze(plainCopy(session));
}
