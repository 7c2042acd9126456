/**
 * Dynamically registered clients (RFC 7591) and their management (RFC 7592): create, find by registration
 * access token, update, and the answer both RFCs give. The registration access token is 32 random bytes shown
 * once; the client row keeps its digest under its own label (client-secret.ts says why a plain SHA-256 of a
 * random secret suffices), so it can never equal the digest of a client secret.
 */
import { hash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { OAuthError } from '../../kernel/oauth-error.ts';
import { unixSeconds } from '../users/index.ts';
import { Client, type ClientRow } from './client.entity.ts';
import { clientSecretDigest, newClientId, newClientSecret } from './client-secret.ts';
import { clientAuthCacheOf } from './client-auth-cache.ts';
import type { CheckedMetadata } from './registration-metadata.ts';

const REGISTRATION_TOKEN_LABEL = 'portcullis/registration-access-token/v1:';

export function registrationTokenDigest(token: string): string {
  return hash('sha256', REGISTRATION_TOKEN_LABEL + token, 'hex');
}

export interface Registered {
  client: ClientRow;
  /** The plain secret of a confidential client, for the one answer that shows it. */
  secret?: string;
  registrationToken: string;
}

export async function registerDynamicClient(em: EntityManager, now: Date, metadata: CheckedMetadata): Promise<Registered> {
  // A public client gets no secret; its secretHash is the digest of one nobody is ever shown, so no presented
  // secret matches it (client-auth.ts authenticates it with client_id alone).
  const secret = newClientSecret();
  const registrationToken = newClientSecret();
  const client = em.create(Client, {
    id: randomUUID(),
    clientId: newClientId(),
    name: metadata.name,
    description: '',
    allowedScopes: metadata.scopes,
    redirectUris: metadata.redirectUris,
    postLogoutRedirectUris: [],
    // Nobody in this organization vouched for a self-registered client: the user consents to it (RFC 7591 section 5).
    consentRequired: true,
    isActive: true,
    createdAt: now,
    updatedAt: now,
    secretHash: clientSecretDigest(secret),
    previousSecretHash: null,
    previousSecretExpiresAt: null,
    registration: metadata.registration,
    registrationTokenHash: registrationTokenDigest(registrationToken),
  });
  await em.flush();
  const confidential = metadata.registration.token_endpoint_auth_method !== 'none';
  return { client, registrationToken, ...(confidential ? { secret } : {}) };
}

/**
 * The dynamically registered client at `clientId` whose registration access token this is (RFC 7592 section
 * 3), else an invalid_token refusal (RFC 6750 section 3.1), the same for an unknown client and a wrong token.
 */
export async function requireRegisteredClient(em: EntityManager, clientId: string, token: string | undefined): Promise<ClientRow> {
  const refusal = new OAuthError(401, 'invalid_token', 'the registration access token is not valid for this client', 'Bearer error="invalid_token"');
  if (!token || token.length > 256 || clientId.length === 0 || clientId.length > 64) throw refusal;
  const client = await em.findOne(Client, { clientId });
  const presented = Buffer.from(registrationTokenDigest(token), 'hex');
  const stored = Buffer.from(client?.registrationTokenHash ?? '00'.repeat(32), 'hex');
  const matches = presented.length === stored.length && timingSafeEqual(presented, stored);
  if (!client || !client.registration || !client.registrationTokenHash || !matches) throw refusal;
  return client;
}

/** RFC 7592 section 2.2: the metadata sent replaces the client's; the kind of client (public or not) stays. */
export async function updateDynamicClient(em: EntityManager, now: Date, client: ClientRow, metadata: CheckedMetadata): Promise<ClientRow> {
  if (metadata.registration.token_endpoint_auth_method !== client.registration!.token_endpoint_auth_method) {
    throw new OAuthError(400, 'invalid_client_metadata', 'token_endpoint_auth_method cannot change: register a new client instead');
  }
  client.name = metadata.name;
  client.allowedScopes = metadata.scopes;
  client.redirectUris = metadata.redirectUris;
  client.registration = metadata.registration;
  client.updatedAt = now;
  await em.flush();
  clientAuthCacheOf(em).invalidate(client.clientId);
  return client;
}

/** The client information response (RFC 7591 section 3.2.1, RFC 7592 section 3). */
export function clientInformation(client: ClientRow, registrationClientUri: string, issued?: { secret?: string; registrationToken?: string }): Record<string, unknown> {
  const registration = client.registration!;
  return {
    client_id: client.clientId,
    ...(issued?.secret !== undefined ? { client_secret: issued.secret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: unixSeconds(client.createdAt),
    ...(issued?.registrationToken !== undefined ? { registration_access_token: issued.registrationToken } : {}),
    registration_client_uri: registrationClientUri,
    client_name: client.name,
    redirect_uris: client.redirectUris,
    scope: client.allowedScopes.join(' '),
    ...registration,
  };
}
