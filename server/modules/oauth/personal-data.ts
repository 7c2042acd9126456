/**
 * What oauth keeps about an account, in its holder's copy and in its erasure (docs/privacy.md;
 * accounts' onPersonalDataExport and onAccountErased): the consents given to clients, and the codes and
 * waiting authorization requests of sign-ins in flight.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { PersonalDataSections } from '../accounts/index.ts';
import { Client } from '../clients/index.ts';
import { AuthorizationCode } from './authorization-code.entity.ts';
import { Consent } from './consent.entity.ts';
import { PendingAuthorization } from './pending-authorization.entity.ts';

/** Each consent: the client (its id and name), the scopes granted, when first given and last widened. */
export async function exportConsents(em: EntityManager, userId: string, sections: PersonalDataSections): Promise<void> {
  const consents = await em.find(Consent, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const clientIds = [...new Set(consents.map((consent) => consent.clientId))];
  const clients = clientIds.length ? await em.find(Client, { clientId: { $in: clientIds } }, { fields: ['clientId', 'name'] }) : [];
  const nameOf = new Map(clients.map((client) => [client.clientId, client.name]));
  sections.oauth_consents = consents.map((consent) => ({
    client_id: consent.clientId,
    client_name: nameOf.get(consent.clientId) ?? null,
    scopes: consent.scopes,
    granted_at: consent.createdAt.toISOString(),
    updated_at: consent.updatedAt.toISOString(),
  }));
}

export async function eraseOauthRows(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(AuthorizationCode, { userId });
  await em.nativeDelete(PendingAuthorization, { userId });
  await em.nativeDelete(Consent, { userId });
}
