/**
 * Trusted issuers of registered clients (docs/api-overview.md#resources-and-fields, "Trusted issuer"; docs/operations.md, "Trusted issuers"):
 * add, update, delete, read, list, and the lookups client assertions and the jwt-bearer grant make.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Config } from '../../config/flags.ts';
import type { Static } from '../../ops/schema.ts';
import { paginate, type Page } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { Client } from './client.entity.ts';
import { TrustedIssuer, type TrustedIssuerRow } from './trusted-issuer.entity.ts';
import {
  checkedAudience, checkedIssuer, checkedIssuerName, checkedJwksUrl, checkedSubjectClaim, owningClientIdOf,
  type AddTrustedIssuerRequest, type TrustedIssuersRequest, type UpdateTrustedIssuerRequest,
} from './trusted-issuers.schema.ts';

/** This server's token endpoint: the aud an assertion is addressed to by default (RFC 7523 section 3, item 3). */
export function tokenEndpointUrl(config: Pick<Config, 'url'>): string {
  return `${(config.url ?? '').replace(/\/+$/, '')}/oauth/token`;
}

const DEFAULT_SUBJECT_CLAIM = 'sub';

/** The flags registration reads: the default audience, and whether a JWKS URL may be internal. */
export type TrustedIssuerConfig = Pick<Config, 'url' | 'trustedIssuerAllowPrivateAddresses'>;

export async function addTrustedIssuer(
  em: EntityManager, config: TrustedIssuerConfig, now: Date, input: Static<typeof AddTrustedIssuerRequest>,
): Promise<TrustedIssuerRow> {
  const clientId = owningClientIdOf(input);
  if (!clientId) throw AppError.invalid('client_id (or service_account_id) of the owning client is required');
  const issuer = checkedIssuer(input.issuer);
  const row = {
    id: randomUUID(),
    clientId,
    name: checkedIssuerName(input.name),
    issuer,
    jwksUrl: checkedJwksUrl(input.jwks_url, config.trustedIssuerAllowPrivateAddresses),
    audience: checkedAudience(input.audience ?? tokenEndpointUrl(config)),
    subjectClaim: checkedSubjectClaim(input.subject_claim ?? DEFAULT_SUBJECT_CLAIM),
    spiffeHint: input.spiffe_hint?.trim() || null,
    isActive: input.is_active ?? true,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await em.findOne(Client, { clientId }))) throw AppError.notFound('client not found');
  if (await em.findOne(TrustedIssuer, { clientId, issuer })) {
    throw new AppError('already_exists', 'this client already trusts an issuer with this iss value');
  }
  const created = em.create(TrustedIssuer, row);
  try {
    await em.flush();
  } catch (err) {
    // Two concurrent adds of one (client, issuer): the unique index decides.
    if (isUniqueViolation(err)) throw new AppError('already_exists', 'this client already trusts an issuer with this iss value');
    throw err;
  }
  return created;
}

export async function requireTrustedIssuer(em: EntityManager, id: string): Promise<TrustedIssuerRow> {
  const row = await em.findOne(TrustedIssuer, { id });
  if (!row) throw AppError.notFound('trusted issuer not found');
  return row;
}

export async function updateTrustedIssuer(
  em: EntityManager, config: TrustedIssuerConfig, now: Date, input: Static<typeof UpdateTrustedIssuerRequest>,
): Promise<TrustedIssuerRow> {
  const row = await requireTrustedIssuer(em, input.id);
  if (input.name !== undefined) row.name = checkedIssuerName(input.name);
  if (input.jwks_url !== undefined) row.jwksUrl = checkedJwksUrl(input.jwks_url, config.trustedIssuerAllowPrivateAddresses);
  if (input.audience !== undefined) row.audience = checkedAudience(input.audience);
  if (input.spiffe_hint !== undefined) row.spiffeHint = input.spiffe_hint.trim() || null;
  if (input.is_active !== undefined) row.isActive = input.is_active;
  row.updatedAt = now;
  await em.flush();
  return row;
}

export async function deleteTrustedIssuer(em: EntityManager, id: string): Promise<void> {
  em.remove(await requireTrustedIssuer(em, id));
  await em.flush();
}

/** docs/operations.md: deleting a client deletes its trusted issuers (called in deleteClient's transaction). */
export function deleteTrustedIssuersOfClient(em: EntityManager, clientId: string): Promise<number> {
  return em.nativeDelete(TrustedIssuer, { clientId });
}

export function listTrustedIssuers(em: EntityManager, input: Static<typeof TrustedIssuersRequest>): Promise<Page<TrustedIssuerRow>> {
  const clientId = owningClientIdOf(input);
  const where: FilterQuery<TrustedIssuerRow> = clientId ? { clientId } : {};
  return paginate(em, TrustedIssuer, where, input.pagination, { createdAt: 'desc', id: 'asc' });
}

/** The active issuers of a client, whose keys may sign its private_key_jwt assertions. */
export function activeIssuersOfClient(em: EntityManager, clientId: string): Promise<TrustedIssuerRow[]> {
  return em.find(TrustedIssuer, { clientId, isActive: true }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** The active issuers registered with this iss value (one per client at most), for the jwt-bearer grant. */
export function activeIssuersNamed(em: EntityManager, issuer: string): Promise<TrustedIssuerRow[]> {
  return em.find(TrustedIssuer, { issuer, isActive: true }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
