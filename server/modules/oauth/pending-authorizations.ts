/**
 * Authorization requests waiting for consent (pending-authorization.entity.ts): opened by /authorize,
 * read and decided by the login UI's consent screen through the operations of oauth.ops.ts.
 */
import type { EntityManager } from '@mikro-orm/core';
import { randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { PendingAuthorization, type PendingAuthorizationRow } from './pending-authorization.entity.ts';

/** Long enough to read a consent screen, short enough that a forgotten tab does not keep a request open. */
export const PENDING_SECONDS = 10 * 60;

export interface NewPending {
  userId: string;
  authTime: Date;
  clientId: string;
  params: Record<string, string>;
  scopes: string[];
}

/** Answers the request id for the consent URL (only its hash is stored). */
export async function openPendingAuthorization(em: EntityManager, now: Date, pending: NewPending): Promise<string> {
  const requestId = randomToken(32);
  em.create(PendingAuthorization, {
    id: sha256Hex(requestId),
    ...pending,
    decision: null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + PENDING_SECONDS * 1000),
  });
  // Expired requests of this user go with it, so the table holds only live ones.
  await em.nativeDelete(PendingAuthorization, { userId: pending.userId, expiresAt: { $lt: now } });
  await em.flush();
  return requestId;
}

/**
 * The live request with this id opened by this user in this login (same auth time: a session refresh
 * keeps it), or undefined: an id of another person, of an earlier login or an expired one is not found.
 */
export async function findPendingAuthorization(
  em: EntityManager,
  now: Date,
  requestId: string,
  owner: { userId: string; authTime: Date },
): Promise<PendingAuthorizationRow | undefined> {
  if (requestId === '' || requestId.length > 128) return undefined;
  const row = await em.findOne(PendingAuthorization, { id: sha256Hex(requestId) });
  if (!row || row.expiresAt.getTime() <= now.getTime()) return undefined;
  // Compared in whole seconds: some databases keep datetimes without milliseconds.
  const sameLogin = Math.floor(row.authTime.getTime() / 1000) === Math.floor(owner.authTime.getTime() / 1000);
  if (row.userId !== owner.userId || !sameLogin) return undefined;
  return row;
}

export async function closePendingAuthorization(em: EntityManager, row: PendingAuthorizationRow): Promise<void> {
  await em.nativeDelete(PendingAuthorization, { id: row.id });
}
