/**
 * Initial access tokens (RFC 7591 section 3): issue, list, revoke, and the check POST /oauth/register makes in
 * --dynamic-registration initial-token mode. The token is 32 random bytes shown once; the row keeps its
 * digest under its own label (client-secret.ts says why a plain SHA-256 suffices for a random secret), so it
 * can never equal a client secret's or a registration access token's digest.
 */
import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../../kernel/errors.ts';
import { InitialAccessToken, type InitialAccessTokenRow } from './initial-access-token.entity.ts';

const LABEL = 'portcullis/initial-access-token/v1:';
/** At most a year: a registration credential that outlives its purpose is one more secret to leak. */
export const MAX_INITIAL_TOKEN_SECONDS = 365 * 24 * 3600;

export function initialAccessTokenDigest(token: string): string {
  return hash('sha256', LABEL + token, 'hex');
}

export interface IssuedInitialToken {
  row: InitialAccessTokenRow;
  token: string;
}

export async function issueInitialAccessToken(
  em: EntityManager, now: Date, input: { description?: string; expires_in_seconds: number; uses?: number },
): Promise<IssuedInitialToken> {
  const seconds = Math.floor(input.expires_in_seconds);
  if (!(seconds > 0 && seconds <= MAX_INITIAL_TOKEN_SECONDS)) throw AppError.invalid(`expires_in_seconds must be 1 to ${MAX_INITIAL_TOKEN_SECONDS}`);
  if (input.uses !== undefined && !(Number.isInteger(input.uses) && input.uses > 0)) throw AppError.invalid('uses must be a positive whole number (omit it for no limit)');
  const token = randomBytes(32).toString('base64url');
  const row = em.create(InitialAccessToken, {
    id: randomUUID(),
    tokenHash: initialAccessTokenDigest(token),
    description: (input.description ?? '').trim().slice(0, 255),
    createdAt: now,
    expiresAt: new Date(now.getTime() + seconds * 1000),
    usesLeft: input.uses ?? null,
  });
  await em.flush();
  return { row, token };
}

export function listInitialAccessTokens(em: EntityManager): Promise<InitialAccessTokenRow[]> {
  return em.find(InitialAccessToken, {}, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: 1000 });
}

export async function revokeInitialAccessToken(em: EntityManager, id: string): Promise<void> {
  const deleted = await em.nativeDelete(InitialAccessToken, { id });
  if (deleted === 0) throw AppError.notFound('initial access token not found');
}

/**
 * Spends one use of the token: true when it was live (known, unexpired, a use left). The use count is
 * lowered only from the value read, so two registrations racing for the last use cannot both have it.
 */
export async function spendInitialAccessToken(em: EntityManager, token: string, now: Date): Promise<boolean> {
  if (token.length === 0 || token.length > 256) return false;
  const row = await em.findOne(InitialAccessToken, { tokenHash: initialAccessTokenDigest(token) });
  if (!row || row.expiresAt.getTime() <= now.getTime()) return false;
  if (row.usesLeft === null || row.usesLeft === undefined) return true;
  if (row.usesLeft <= 0) return false;
  const updated = await em.nativeUpdate(InitialAccessToken, { id: row.id, usesLeft: row.usesLeft }, { usesLeft: row.usesLeft - 1 });
  return updated === 1;
}
