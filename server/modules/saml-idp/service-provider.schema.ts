/**
 * Wire shapes of the SAML service provider operations (docs/api-overview.md#resources-and-fields, "SAML service provider": name,
 * endpoints, certificate, attribute mapping, active state; docs/operations.md, "SAML IdP", list operations take
 * {page, limit}). snake_case, timestamps in Unix seconds, as the other admin records. The SP certificate
 * is public, answered as its fingerprint and PEM. New optional request fields go last in their object:
 * gRPC field numbers follow the order.
 */
import { s, type Static } from '../../ops/schema.ts';
import { Pagination, PaginationRequest } from '../../ops/pagination.ts';
import type { SamlServiceProviderRow } from './saml-idp.entities.ts';
import { certificateFingerprint } from './sp-certificate.ts';
import { shortNameIdFormat, sloBindingOf } from './sp-fields.ts';

const id = s.string({ minLength: 1, maxLength: 64 });
const name = s.string({ minLength: 1, maxLength: 255 });
const entityId = s.string({ minLength: 1, maxLength: 1024, description: "the SP's entityID, the Issuer of its AuthnRequests and the Audience of our assertions" });
const certificate = s.string({ minLength: 1, maxLength: 32_768, multiline: true, description: 'PEM (or bare base64) of the SP signing certificate: its AuthnRequests must then be signed' });
const sloUrl = s.string({ minLength: 1, maxLength: 2048, description: 'the SP SingleLogoutService for our LogoutResponse; SLO needs the SP certificate too' });
const sloBinding = s.string({ minLength: 1, maxLength: 128, description: "the binding of slo_url: redirect (HTTP-Redirect, a signed query string) or post (HTTP-POST, a signed form); post when not given" });
const nameIdFormat = s.string({ minLength: 1, maxLength: 128, description: 'emailAddress (default), persistent or unspecified' });

export const SamlAcsEndpointSchema = s.object('SamlAcsEndpoint', {
  url: s.string(),
  binding: s.string(),
  index: s.int(),
  is_default: s.boolean(),
});

export const SamlAcsEndpointInput = s.object('SamlAcsEndpointInput', {
  url: s.string({ minLength: 1, maxLength: 2048 }),
  /** HTTP-POST, the binding of the Web Browser SSO profile's response (Profiles 4.1.2); the only one served. */
  binding: s.optional(s.string({ maxLength: 128 })),
  is_default: s.optional(s.boolean()),
  /** The SP's own index (Metadata 2.2.3 IndexedEndpointType), named by AssertionConsumerServiceIndex; else its position. */
  index: s.optional(s.int({ minimum: 0, maximum: 65_535 })),
});

export const SamlAttributeMappingSchema = s.object('SamlAttributeMapping', {
  field: s.string({ minLength: 1, maxLength: 64, description: 'user field: id, email, given_name, family_name, name, nickname, preferred_username, phone_number, roles, org_roles' }),
  attribute: s.string({ minLength: 1, maxLength: 255, description: 'the SAML attribute Name the SP expects' }),
});

export const SamlServiceProviderSchema = s.object('SamlServiceProvider', {
  id: s.string(),
  org_id: s.string(),
  name: s.string(),
  entity_id: s.string(),
  acs_endpoints: s.list(SamlAcsEndpointSchema),
  certificate: s.optional(s.string()),
  certificate_fingerprint_sha256: s.optional(s.string()),
  attribute_mapping: s.list(SamlAttributeMappingSchema),
  name_id_format: s.string(),
  active: s.boolean(),
  created_at: s.int64(),
  updated_at: s.int64(),
  slo_url: s.optional(s.string()),
  /** redirect or post, beside slo_url. */
  slo_binding: s.optional(s.string()),
});

export const CreateSamlServiceProviderRequest = s.object('CreateSamlServiceProviderRequest', {
  org_id: id,
  name,
  entity_id: entityId,
  acs_endpoints: s.list(SamlAcsEndpointInput, { minItems: 1, maxItems: 10 }),
  certificate: s.optional(certificate),
  attribute_mapping: s.optional(s.list(SamlAttributeMappingSchema, { maxItems: 20 })),
  name_id_format: s.optional(nameIdFormat),
  active: s.optional(s.boolean()),
  slo_url: s.optional(sloUrl),
  slo_binding: s.optional(sloBinding),
});

/** Omitted fields stay; a given list replaces the stored one; remove_certificate drops the certificate. */
export const UpdateSamlServiceProviderRequest = s.object('UpdateSamlServiceProviderRequest', {
  id,
  name: s.optional(name),
  entity_id: s.optional(entityId),
  acs_endpoints: s.optional(s.list(SamlAcsEndpointInput, { maxItems: 10 })),
  certificate: s.optional(certificate),
  attribute_mapping: s.optional(s.list(SamlAttributeMappingSchema, { maxItems: 20 })),
  name_id_format: s.optional(nameIdFormat),
  active: s.optional(s.boolean()),
  remove_certificate: s.optional(s.boolean()),
  clear_attribute_mapping: s.optional(s.boolean()),
  slo_url: s.optional(sloUrl),
  remove_slo_url: s.optional(s.boolean()),
  /** Given alone, changes the binding of the registered slo_url; slo_url given alone keeps the binding. */
  slo_binding: s.optional(sloBinding),
});

export const SamlServiceProviderRequest = s.object('SamlServiceProviderRequest', { id });
export const DeleteSamlServiceProviderRequest = s.object('DeleteSamlServiceProviderRequest', { id });

export const SamlServiceProvidersRequest = s.object('SamlServiceProvidersRequest', {
  org_id: id,
  pagination: s.optional(PaginationRequest),
});

export const SamlServiceProviders = s.object('SamlServiceProviders', {
  service_providers: s.list(SamlServiceProviderSchema),
  pagination: Pagination,
});

export const ImportSamlSpMetadataRequest = s.object('ImportSamlSpMetadataRequest', {
  org_id: id,
  metadata_xml: s.string({ minLength: 1, maxLength: 262_144, multiline: true, description: 'the SP metadata document, pasted; nothing is fetched' }),
});

/** Prefill fields for create_saml_service_provider; nothing is stored. */
export const SamlSpMetadataPrefill = s.object('SamlSpMetadataPrefill', {
  entity_id: s.string(),
  acs_endpoints: s.list(SamlAcsEndpointSchema),
  certificate: s.optional(s.string()),
  name_id_formats: s.list(s.string()),
  authn_requests_signed: s.boolean(),
  want_assertions_signed: s.boolean(),
  /** The first SingleLogoutService by HTTP-Redirect or HTTP-POST, in the SP's order (its ResponseLocation when given). */
  slo_url: s.optional(s.string()),
  /** redirect or post, beside slo_url. */
  slo_binding: s.optional(s.string()),
});

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toPublicServiceProvider(row: SamlServiceProviderRow): Static<typeof SamlServiceProviderSchema> {
  return {
    id: row.id,
    org_id: row.orgId,
    name: row.name,
    entity_id: row.entityId,
    acs_endpoints: row.acsEndpoints.map((acs) => ({ url: acs.url, binding: acs.binding, index: acs.index, is_default: acs.isDefault })),
    ...(row.certificatePem ? { certificate: row.certificatePem, certificate_fingerprint_sha256: certificateFingerprint(row.certificatePem) } : {}),
    attribute_mapping: Object.entries(row.attributeMapping).map(([field, attribute]) => ({ field, attribute })),
    name_id_format: shortNameIdFormat(row.nameIdFormat),
    active: row.active,
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
    ...(row.sloUrl ? { slo_url: row.sloUrl, slo_binding: sloBindingOf(row)! } : {}),
  };
}
