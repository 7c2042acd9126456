/**
 * Stored consents (OpenID Connect Core section 3.1.2.4: the authorization server obtains the user's
 * decision, and may remember it). A consent covers a request when it holds every requested scope.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { Consent, type ConsentRow } from './consent.entity.ts';

export async function consentCovers(em: EntityManager, userId: string, clientId: string, scopes: readonly string[]): Promise<boolean> {
  const row = await em.findOne(Consent, { userId, clientId });
  return row !== null && scopes.every((scope) => row.scopes.includes(scope));
}

/** Records consent to `scopes`, widening an earlier consent of the same user to the same client. */
export async function grantConsent(em: EntityManager, now: Date, userId: string, clientId: string, scopes: readonly string[]): Promise<void> {
  const row = await em.findOne(Consent, { userId, clientId });
  if (row) {
    row.scopes = [...new Set([...row.scopes, ...scopes])];
    row.updatedAt = now;
  } else {
    em.create(Consent, { id: randomUUID(), userId, clientId, scopes: [...scopes], createdAt: now, updatedAt: now });
  }
  await em.flush();
}

export function consentsOf(em: EntityManager, userId: string): Promise<ConsentRow[]> {
  return em.find(Consent, { userId }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: 500 });
}

/** Answers whether there was a consent to remove. */
export async function revokeConsent(em: EntityManager, userId: string, clientId: string): Promise<boolean> {
  return (await em.nativeDelete(Consent, { userId, clientId })) > 0;
}
