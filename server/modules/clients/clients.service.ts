/**
 * The client registry (specification part 4.2 "Client registry"; part 3 "Client secret valid |
 * rotate_client_secret"): create, update, delete, rotate, read, and the secret check the token endpoint
 * makes. Secrets leave this file only in the answers of create and rotate.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Static } from '../../ops/schema.ts';
import type { PaginationRequest } from '../../ops/pagination.ts';
import { paginate, type Page } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { Client, type ClientRow } from './client.entity.ts';
import { deleteTrustedIssuersOfClient } from './trusted-issuers.service.ts';
import { clientSecretDigest, newClientId, newClientSecret, secretMatchesDigest } from './client-secret.ts';
import {
  checkedName, checkedRedirectUris, checkedScopes,
  type CreateClientRequest, type GetClientRequest, type UpdateClientRequest,
} from './clients.schema.ts';

export interface IssuedSecret {
  client: ClientRow;
  /** The plain secret, for the one answer that shows it. */
  secret: string;
}

export async function createClient(em: EntityManager, now: Date, input: Static<typeof CreateClientRequest>): Promise<IssuedSecret> {
  const secret = newClientSecret();
  const client = em.create(Client, {
    id: randomUUID(),
    clientId: newClientId(),
    name: checkedName(input.name),
    description: input.description ?? '',
    allowedScopes: checkedScopes(input.allowed_scopes ?? []),
    redirectUris: checkedRedirectUris(input.redirect_uris ?? []),
    // Clients are first-party by default (issue "Client registry": consent only when registered so).
    consentRequired: input.consent_required ?? false,
    isActive: input.is_active ?? true,
    createdAt: now,
    updatedAt: now,
    secretHash: clientSecretDigest(secret),
    previousSecretHash: null,
    previousSecretExpiresAt: null,
  });
  await em.flush();
  return { client, secret };
}

export async function requireClient(em: EntityManager, id: string): Promise<ClientRow> {
  const client = await em.findOne(Client, { id });
  if (!client) throw AppError.notFound('client not found');
  return client;
}

/** By id or by client_id, exactly one of them. */
export async function getClient(em: EntityManager, input: Static<typeof GetClientRequest>): Promise<ClientRow> {
  const byId = input.id !== undefined && input.id !== '';
  const byClientId = input.client_id !== undefined && input.client_id !== '';
  if (byId === byClientId) throw AppError.invalid('give exactly one of id and client_id');
  const client = await em.findOne(Client, byId ? { id: input.id! } : { clientId: input.client_id! });
  if (!client) throw AppError.notFound('client not found');
  return client;
}

export function listClients(em: EntityManager, pagination: Static<typeof PaginationRequest> | undefined): Promise<Page<ClientRow>> {
  return paginate(em, Client, {}, pagination, { createdAt: 'desc', id: 'asc' });
}

export async function updateClient(em: EntityManager, now: Date, input: Static<typeof UpdateClientRequest>): Promise<ClientRow> {
  const client = await requireClient(em, input.id);
  if (input.name !== undefined) client.name = checkedName(input.name);
  if (input.description !== undefined) client.description = input.description;
  if (input.allowed_scopes !== undefined) client.allowedScopes = checkedScopes(input.allowed_scopes);
  if (input.redirect_uris !== undefined) client.redirectUris = checkedRedirectUris(input.redirect_uris);
  if (input.consent_required !== undefined) client.consentRequired = input.consent_required;
  if (input.is_active !== undefined) client.isActive = input.is_active;
  client.updatedAt = now;
  await em.flush();
  return client;
}

export async function deleteClient(em: EntityManager, id: string): Promise<void> {
  const client = await requireClient(em, id);
  // Specification part 4.2 "Client registry": delete cascades to the client's trusted issuers, in this
  // transaction, so no issuer outlives its client to vouch for a later client given the same client_id.
  await deleteTrustedIssuersOfClient(em, client.clientId);
  em.remove(client);
  await em.flush();
}

/**
 * A new secret; the one it replaces keeps validating for `graceSeconds` (specification part 3), so a relying
 * party can roll its configuration without an outage. Only one earlier secret is kept: rotating again inside
 * the window ends the older one at once. A grace of 0 ends the old secret now.
 */
export async function rotateClientSecret(em: EntityManager, now: Date, id: string, graceSeconds: number): Promise<IssuedSecret> {
  const client = await requireClient(em, id);
  const secret = newClientSecret();
  const grace = Math.max(0, Math.floor(graceSeconds));
  client.previousSecretHash = grace > 0 ? client.secretHash : null;
  client.previousSecretExpiresAt = grace > 0 ? new Date(now.getTime() + grace * 1000) : null;
  client.secretHash = clientSecretDigest(secret);
  client.updatedAt = now;
  await em.flush();
  return { client, secret };
}

/**
 * The client whose client_id and secret these are, or undefined: an active client, and either its current
 * secret or the previous one before the end of its grace window. For client authentication at the token
 * endpoint (RFC 6749 section 2.3.1). Both digests are always compared, so the answer time does not tell
 * which one matched.
 */
export async function verifyClientSecret(em: EntityManager, clientId: string, secret: string, now: Date): Promise<ClientRow | undefined> {
  if (clientId.length === 0 || clientId.length > 64) return undefined;
  const client = await em.findOne(Client, { clientId });
  if (!client || !client.isActive) return undefined;
  const current = secretMatchesDigest(secret, client.secretHash);
  const graceEnd = client.previousSecretExpiresAt;
  const inGrace = graceEnd != null && graceEnd.getTime() > now.getTime();
  const previous = secretMatchesDigest(secret, client.previousSecretHash) && inGrace;
  return current || previous ? client : undefined;
}
