/**
 * The client registry (docs/operations.md, "Client registry";
 * docs/api-overview.md#states-and-transitions, "Client secret valid | rotate_client_secret"): create, update,
 * delete, rotate, read, and the secret check the token endpoint
 * makes. Secrets leave this file only in the answers of create and rotate.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Static } from '../../ops/schema.ts';
import type { PaginationRequest } from '../../ops/pagination.ts';
import { paginate, type Page } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { Client, type ClientRow } from './client.entity.ts';
import { deleteTrustedIssuersOfClient } from './trusted-issuers.service.ts';
import { MAX_PRESENTED_SECRET_LENGTH, clientSecretDigest, newClientId, newClientSecret } from './client-secret.ts';
import { clientAuthCacheOf } from './client-auth-cache.ts';
import { checkedResources } from './allowed-resources.ts';
import {
  checkedName, checkedPostLogoutRedirectUris, checkedRedirectUris, checkedScopes,
  type CreateClientRequest, type GetClientRequest, type UpdateClientRequest,
} from './clients.schema.ts';

/**
 * What a client registered without allowed_scopes (omitted or empty: proto3 cannot tell them apart) may ask
 * for: the OpenID Connect sign-in scopes (OpenID Connect Core 5.4), so a new relying party works with
 * `scope=openid email profile` and a client_credentials request for openid is not invalid_scope. create_client's
 * description says so and the console pre-fills it, so nobody mistakes an empty field for "nothing".
 */
export const DEFAULT_ALLOWED_SCOPES: readonly string[] = ['openid', 'email', 'profile'];

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
    allowedScopes: checkedScopes(input.allowed_scopes?.length ? input.allowed_scopes : DEFAULT_ALLOWED_SCOPES),
    redirectUris: checkedRedirectUris(input.redirect_uris ?? []),
    postLogoutRedirectUris: checkedPostLogoutRedirectUris(input.post_logout_redirect_uris ?? []),
    // Clients are first-party by default (consent only when registered so).
    consentRequired: input.consent_required ?? false,
    requirePushedAuthorizationRequests: input.require_pushed_authorization_requests ?? false,
    allowedResources: checkedResources(input.allowed_resources ?? []),
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
  if (input.post_logout_redirect_uris !== undefined) client.postLogoutRedirectUris = checkedPostLogoutRedirectUris(input.post_logout_redirect_uris);
  if (input.consent_required !== undefined) client.consentRequired = input.consent_required;
  if (input.require_pushed_authorization_requests !== undefined) client.requirePushedAuthorizationRequests = input.require_pushed_authorization_requests;
  if (input.allowed_resources !== undefined) client.allowedResources = checkedResources(input.allowed_resources);
  if (input.is_active !== undefined) client.isActive = input.is_active;
  client.updatedAt = now;
  await em.flush();
  // Scopes, redirect URIs and the active state are part of what client authentication answers.
  clientAuthCacheOf(em).invalidate(client.clientId);
  return client;
}

export async function deleteClient(em: EntityManager, id: string): Promise<void> {
  const client = await requireClient(em, id);
  // docs/operations.md, "Client registry": delete cascades to the client's trusted issuers, in this
  // transaction, so no issuer outlives its client to vouch for a later client given the same client_id.
  await deleteTrustedIssuersOfClient(em, client.clientId);
  em.remove(client);
  await em.flush();
  clientAuthCacheOf(em).invalidate(client.clientId);
}

/**
 * A new secret; the one it replaces keeps validating for `graceSeconds` (docs/api-overview.md#states-and-transitions), so a relying
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
  // With grace 0 the old secret must stop at once on this instance, not when its cache entry expires.
  clientAuthCacheOf(em).invalidate(client.clientId);
  return { client, secret };
}

/** Whether the hex digest `presented` equals `stored`, in time independent of where they differ. */
function digestEquals(presented: Buffer, stored: string | null | undefined): boolean {
  if (!stored) return false;
  const storedBytes = Buffer.from(stored, 'hex');
  return presented.length === storedBytes.length && timingSafeEqual(presented, storedBytes);
}

/** What a secret check found: the client, and until when the match holds (the previous secret's grace end). */
interface SecretMatch {
  client: ClientRow;
  validUntilMs: number;
}

/** The database half of the check: one read of the row, both digests compared (see verifyClientSecret). */
async function matchStoredSecret(em: EntityManager, clientId: string, presentedDigest: string, now: Date): Promise<SecretMatch | undefined> {
  const client = await em.findOne(Client, { clientId });
  const presented = Buffer.from(presentedDigest, 'hex');
  // Both digests are compared even for an unknown or inactive client (against nothing), so the answer time
  // does not tell which secret matched, and differs from an unknown client's only by the row's transfer.
  const current = digestEquals(presented, client?.secretHash);
  const previousMatches = digestEquals(presented, client?.previousSecretHash);
  if (!client || !client.isActive) return undefined;
  const graceEnd = client.previousSecretExpiresAt?.getTime();
  const inGrace = graceEnd !== undefined && graceEnd > now.getTime();
  if (current) return { client, validUntilMs: Number.POSITIVE_INFINITY };
  if (previousMatches && inGrace) return { client, validUntilMs: graceEnd };
  return undefined;
}

/** client_id and secret in the shape this server issues them; anything else is refused without a read. */
function plausible(clientId: string, secret: string): boolean {
  return clientId.length > 0 && clientId.length <= 64 && secret.length > 0 && secret.length <= MAX_PRESENTED_SECRET_LENGTH;
}

/**
 * The client whose client_id and secret these are, or undefined: an active client, and either its current
 * secret or the previous one before the end of its grace window. For client authentication at the token
 * endpoint (RFC 6749 section 2.3.1). Reads the database every time; checkClientSecret answers from the
 * cache first.
 */
export async function verifyClientSecret(em: EntityManager, clientId: string, secret: string, now: Date): Promise<ClientRow | undefined> {
  if (!plausible(clientId, secret)) return undefined;
  return (await matchStoredSecret(em, clientId, clientSecretDigest(secret), now))?.client;
}

type StorageOfClients = { readonly orm: Pick<EntityManager, 'config'>; fork(): EntityManager };

/**
 * The client these credentials were verified for within the last few seconds (client-auth-cache.ts), or
 * undefined: no database read. A hit is a frozen snapshot of the row, not an entity of a unit of work.
 */
export function recentlyVerifiedClient(storage: StorageOfClients, clientId: string, secret: string, now: Date): ClientRow | undefined {
  if (!plausible(clientId, secret)) return undefined;
  return clientAuthCacheOf(storage.orm).lookup(clientId, clientSecretDigest(secret), now.getTime());
}

/**
 * verifyClientSecret answered from the client authentication cache when this client_id and secret were
 * verified within the last few seconds, from the database otherwise (and then remembered).
 */
export async function checkClientSecret(storage: StorageOfClients, clientId: string, secret: string, now: Date): Promise<ClientRow | undefined> {
  if (!plausible(clientId, secret)) return undefined;
  const cache = clientAuthCacheOf(storage.orm);
  const digest = clientSecretDigest(secret);
  const nowMs = now.getTime();
  const hit = cache.lookup(clientId, digest, nowMs);
  if (hit) return hit;
  const epoch = cache.beginRead(clientId);
  const match = await matchStoredSecret(storage.fork(), clientId, digest, now);
  if (!match) return undefined;
  cache.store(clientId, digest, match.client, epoch, nowMs, match.validUntilMs);
  return match.client;
}

/** isActiveClientId's answer when it needs no database read (a malformed id, or the client cache knows it), else undefined. */
export function knownActiveClientId(storage: StorageOfClients, clientId: string, now: Date): boolean | undefined {
  if (clientId.length === 0 || clientId.length > 64) return false;
  return clientAuthCacheOf(storage.orm).anySnapshot(clientId, now.getTime())?.isActive;
}

/**
 * Whether the client with this client_id exists and is active (introspection of a client_credentials token,
 * RFC 7662 section 2.2: a token of a deactivated or deleted client is not active). A fresh cache entry
 * answers; otherwise one read.
 */
export async function isActiveClientId(storage: StorageOfClients, clientId: string, now: Date): Promise<boolean> {
  const known = knownActiveClientId(storage, clientId, now);
  if (known !== undefined) return known;
  const client = await storage.fork().findOne(Client, { clientId });
  return client?.isActive === true;
}
