/**
 * Storage of an organization's SAML service providers (docs/api-overview.md#resources-and-fields, "SAML service provider",
 * docs/operations.md, "SAML IdP"). The entity id is unique within the organization: the composite unique index is the last
 * word under concurrency, the read before it gives the clear message.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import type { Static } from '../../ops/schema.ts';
import { paginate, type Page, type PaginationRequest } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { SamlServiceProvider, type SamlServiceProviderRow } from './saml-idp.entities.ts';
import type { CreateSamlServiceProviderRequest, UpdateSamlServiceProviderRequest } from './service-provider.schema.ts';
import { checkedSpCertificate } from './sp-certificate.ts';
import { checkedAcsEndpoints, checkedAcsUrl, checkedAttributeMapping, checkedEntityId, checkedName, checkedNameIdFormat, checkedSloBinding, sloBindingOf, type SloBinding } from './sp-fields.ts';

const TAKEN = 'this organization already has a service provider with this entity_id';

type SpDeps = Pick<Deps, 'clock'>;

async function flushUnique(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('already_exists', TAKEN);
    throw err;
  }
}

async function assertEntityIdFree(em: EntityManager, orgId: string, entityId: string, exceptId?: string): Promise<void> {
  const found = await em.findOne(SamlServiceProvider, { orgId, entityId }, { fields: ['id'] });
  if (found && found.id !== exceptId) throw new AppError('already_exists', TAKEN);
}

/** The SingleLogoutService of a new provider: a binding needs its URL; a URL given alone is HTTP-POST. */
function registeredSlo(input: Static<typeof CreateSamlServiceProviderRequest>): { sloUrl: string | null; sloBinding: SloBinding | null } {
  if (input.slo_url === undefined) {
    if (input.slo_binding !== undefined) throw AppError.invalid('slo_binding: give slo_url too');
    return { sloUrl: null, sloBinding: null };
  }
  return {
    sloUrl: checkedAcsUrl(input.slo_url, 'slo_url'),
    sloBinding: input.slo_binding !== undefined ? checkedSloBinding(input.slo_binding) : 'post',
  };
}

/** Omitted SLO fields stay: a new URL keeps the binding, a binding alone needs a URL registered. */
function updateSlo(row: SamlServiceProviderRow, input: Static<typeof UpdateSamlServiceProviderRequest>): void {
  if (input.remove_slo_url) {
    if (input.slo_url !== undefined || input.slo_binding !== undefined) throw AppError.invalid('give slo_url and slo_binding or remove_slo_url, not both');
    row.sloUrl = null;
    row.sloBinding = null;
    return;
  }
  const binding = input.slo_binding !== undefined ? checkedSloBinding(input.slo_binding) : sloBindingOf(row) ?? 'post';
  if (input.slo_url !== undefined) row.sloUrl = checkedAcsUrl(input.slo_url, 'slo_url');
  else if (input.slo_binding !== undefined && !row.sloUrl) throw AppError.invalid('slo_binding: this service provider has no slo_url; give it too');
  if (row.sloUrl) row.sloBinding = binding;
}

export async function createServiceProvider(em: EntityManager, deps: SpDeps, input: Static<typeof CreateSamlServiceProviderRequest>): Promise<SamlServiceProviderRow> {
  const now = deps.clock.now();
  const fields = {
    name: checkedName(input.name),
    entityId: checkedEntityId(input.entity_id),
    acsEndpoints: checkedAcsEndpoints(input.acs_endpoints),
    certificatePem: input.certificate !== undefined ? checkedSpCertificate(input.certificate, now) : null,
    attributeMapping: checkedAttributeMapping(input.attribute_mapping ?? []),
    nameIdFormat: checkedNameIdFormat(input.name_id_format),
    ...registeredSlo(input),
  };
  await assertEntityIdFree(em, input.org_id, fields.entityId);
  const row = em.create(SamlServiceProvider, { id: randomUUID(), orgId: input.org_id, ...fields, active: input.active ?? true, createdAt: now, updatedAt: now });
  em.persist(row);
  await flushUnique(em);
  return row;
}

/**
 * Omitted fields stay. An empty list reads as omitted (gRPC cannot tell them apart): clearing the mapping
 * is said with clear_attribute_mapping, dropping the certificate with remove_certificate.
 */
export async function updateServiceProvider(em: EntityManager, deps: SpDeps, row: SamlServiceProviderRow, input: Static<typeof UpdateSamlServiceProviderRequest>): Promise<SamlServiceProviderRow> {
  const now = deps.clock.now();
  if (input.certificate !== undefined && input.remove_certificate) throw AppError.invalid('give certificate or remove_certificate, not both');
  if (input.name !== undefined) row.name = checkedName(input.name);
  if (input.entity_id !== undefined) {
    const entityId = checkedEntityId(input.entity_id);
    await assertEntityIdFree(em, row.orgId, entityId, row.id);
    row.entityId = entityId;
  }
  if (input.acs_endpoints !== undefined && input.acs_endpoints.length > 0) row.acsEndpoints = checkedAcsEndpoints(input.acs_endpoints);
  if (input.certificate !== undefined) row.certificatePem = checkedSpCertificate(input.certificate, now);
  if (input.remove_certificate) row.certificatePem = null;
  if (input.attribute_mapping !== undefined && input.attribute_mapping.length > 0) row.attributeMapping = checkedAttributeMapping(input.attribute_mapping);
  if (input.clear_attribute_mapping) row.attributeMapping = {};
  if (input.name_id_format !== undefined) row.nameIdFormat = checkedNameIdFormat(input.name_id_format);
  if (input.active !== undefined) row.active = input.active;
  updateSlo(row, input);
  row.updatedAt = now;
  await flushUnique(em);
  return row;
}

export function listServiceProviders(em: EntityManager, orgId: string, pagination: Static<typeof PaginationRequest> | undefined): Promise<Page<SamlServiceProviderRow>> {
  return paginate(em, SamlServiceProvider, { orgId }, pagination, { createdAt: 'desc', id: 'desc' });
}

/** The active service provider of this organization whose entity id is the AuthnRequest's Issuer. */
export function findActiveServiceProvider(em: EntityManager, orgId: string, entityId: string): Promise<SamlServiceProviderRow | null> {
  return em.findOne(SamlServiceProvider, { orgId, entityId, active: true });
}
