/**
 * The organization as a SAML 2.0 identity provider (specification part 2 "SAML service provider", part 3 IdP key
 * states, part 4.2 "SAML IdP"): its signing keys with their state and its metadata address (`_saml_idp_keys`,
 * which makes the first key on first use), `_rotate_saml_idp_cert`, `_retire_saml_idp_key`, and its service
 * providers (`_saml_service_providers`, `_create/_update/_delete_saml_service_provider`), with
 * `_import_saml_sp_metadata`, which reads pasted SP metadata into prefill fields and stores nothing
 * (server/modules/saml-idp/*.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer, PageRequest, Pagination } from '../api/types.ts';
import { organizationKeys } from './api.ts';

export interface SamlIdpKey {
  id: string;
  /** current (signing), published (in metadata, not signing) or retired */
  state: string;
  certificate: string;
  fingerprint_sha256: string;
  not_after: number;
  created_at: number;
  demoted_at?: number | null;
  retired_at?: number | null;
}

export interface SamlIdpKeys {
  keys: SamlIdpKey[];
  /** `<--url>/saml/<organization>/metadata`, also the IdP entity id */
  metadata_url: string;
  /** `<--url>/saml/<organization>/sso` (HTTP-Redirect and HTTP-POST) */
  sso_url: string;
}

export interface SamlAcsEndpoint {
  url: string;
  binding: string;
  index: number;
  is_default: boolean;
}

export interface SamlAttributeMapping {
  field: string;
  attribute: string;
}

export interface SamlServiceProvider {
  id: string;
  org_id: string;
  name: string;
  entity_id: string;
  acs_endpoints: SamlAcsEndpoint[];
  certificate?: string | null;
  certificate_fingerprint_sha256?: string | null;
  attribute_mapping: SamlAttributeMapping[];
  /** emailAddress, persistent or unspecified */
  name_id_format: string;
  active: boolean;
  created_at: number;
  updated_at: number;
  slo_url?: string | null;
  /** redirect or post, beside slo_url */
  slo_binding?: string | null;
}

/** What the form sends: a given list replaces the stored one on update. */
export interface SamlServiceProviderFields {
  name: string;
  entity_id: string;
  acs_endpoints: { url: string; binding?: string; is_default?: boolean; index?: number }[];
  certificate?: string;
  attribute_mapping: SamlAttributeMapping[];
  name_id_format: string;
  active: boolean;
  slo_url?: string;
  slo_binding?: string;
}

/** Prefill read from pasted SP metadata; nothing is stored. */
export interface SamlSpMetadataPrefill {
  entity_id: string;
  acs_endpoints: SamlAcsEndpoint[];
  certificate?: string | null;
  name_id_formats: string[];
  authn_requests_signed: boolean;
  want_assertions_signed: boolean;
  slo_url?: string | null;
  slo_binding?: string | null;
}

const KEY_FIELDS = 'id state certificate fingerprint_sha256 not_after created_at demoted_at retired_at';
const SP_FIELDS = `id org_id name entity_id acs_endpoints { url binding index is_default } certificate certificate_fingerprint_sha256
  attribute_mapping { field attribute } name_id_format active created_at updated_at slo_url slo_binding`;

export const samlIdpKeys = {
  keys: (orgId: string) => [...organizationKeys.all, 'saml-idp-keys', orgId] as const,
  providers: (orgId: string) => [...organizationKeys.all, 'saml-service-providers', orgId] as const,
};

export function useSamlIdpKeys(orgId: string) {
  return useQuery({
    queryKey: samlIdpKeys.keys(orgId),
    queryFn: async ({ signal }) => {
      const query = `query SamlIdpKeys($params: SamlIdpKeysRequest!) { _saml_idp_keys(params: $params) { keys { ${KEY_FIELDS} } metadata_url sso_url } }`;
      return (await graphql<{ _saml_idp_keys: SamlIdpKeys }>(query, { params: { org_id: orgId } }, signal))._saml_idp_keys;
    },
  });
}

export async function rotateSamlIdpCert(orgId: string): Promise<SamlIdpKeys> {
  const mutation = `mutation RotateSamlIdpCert($params: RotateSamlIdpCertRequest!) { _rotate_saml_idp_cert(params: $params) {
    keys { ${KEY_FIELDS} } metadata_url sso_url } }`;
  return (await graphql<{ _rotate_saml_idp_cert: SamlIdpKeys }>(mutation, { params: { org_id: orgId } }))._rotate_saml_idp_cert;
}

/** Refused (FAILED_PRECONDITION, in the server's words) for the signing key and for a retired one. */
export async function retireSamlIdpKey(orgId: string, keyId: string): Promise<SamlIdpKeys> {
  const mutation = `mutation RetireSamlIdpKey($params: RetireSamlIdpKeyRequest!) { _retire_saml_idp_key(params: $params) {
    keys { ${KEY_FIELDS} } metadata_url sso_url } }`;
  return (await graphql<{ _retire_saml_idp_key: SamlIdpKeys }>(mutation, { params: { org_id: orgId, key_id: keyId } }))._retire_saml_idp_key;
}

export function useSamlServiceProviders(orgId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...samlIdpKeys.providers(orgId), page],
    queryFn: async ({ signal }) => {
      const query = `query SamlServiceProviders($params: SamlServiceProvidersRequest!) { _saml_service_providers(params: $params) {
        service_providers { ${SP_FIELDS} } pagination { limit page offset total } } }`;
      type Answer = { _saml_service_providers: { service_providers: SamlServiceProvider[]; pagination: Pagination } };
      return (await graphql<Answer>(query, { params: { org_id: orgId, pagination: page } }, signal))._saml_service_providers;
    },
    placeholderData: keepPreviousData,
  });
}

export async function createSamlServiceProvider(orgId: string, fields: SamlServiceProviderFields): Promise<SamlServiceProvider> {
  const mutation = `mutation CreateSamlServiceProvider($params: CreateSamlServiceProviderRequest!) {
    _create_saml_service_provider(params: $params) { ${SP_FIELDS} } }`;
  type Answer = { _create_saml_service_provider: SamlServiceProvider };
  return (await graphql<Answer>(mutation, { params: { org_id: orgId, ...fields } }))._create_saml_service_provider;
}

/**
 * Every field is sent: the lists replace the stored ones. No certificate given keeps the stored one unless
 * `removeCertificate`; an empty mapping is sent as clear_attribute_mapping, an absent SLO URL as remove_slo_url.
 */
export async function updateSamlServiceProvider(id: string, fields: SamlServiceProviderFields, removeCertificate: boolean): Promise<SamlServiceProvider> {
  const mutation = `mutation UpdateSamlServiceProvider($params: UpdateSamlServiceProviderRequest!) {
    _update_saml_service_provider(params: $params) { ${SP_FIELDS} } }`;
  const { attribute_mapping, ...rest } = fields;
  const params = {
    id,
    ...rest,
    ...(attribute_mapping.length > 0 ? { attribute_mapping } : { clear_attribute_mapping: true }),
    ...(removeCertificate && !fields.certificate ? { remove_certificate: true } : {}),
    ...(fields.slo_url ? {} : { remove_slo_url: true }),
  };
  return (await graphql<{ _update_saml_service_provider: SamlServiceProvider }>(mutation, { params }))._update_saml_service_provider;
}

export async function deleteSamlServiceProvider(id: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteSamlServiceProvider($params: DeleteSamlServiceProviderRequest!) { _delete_saml_service_provider(params: $params) { message } }';
  return (await graphql<{ _delete_saml_service_provider: MessageAnswer }>(mutation, { params: { id } }))._delete_saml_service_provider;
}

/** Refused (INVALID_ARGUMENT, in the server's words) for what is not SP metadata or is unsafe XML. */
export async function importSamlSpMetadata(orgId: string, metadataXml: string): Promise<SamlSpMetadataPrefill> {
  const query = `query ImportSamlSpMetadata($params: ImportSamlSpMetadataRequest!) { _import_saml_sp_metadata(params: $params) {
    entity_id acs_endpoints { url binding index is_default } certificate name_id_formats authn_requests_signed want_assertions_signed slo_url slo_binding } }`;
  return (await graphql<{ _import_saml_sp_metadata: SamlSpMetadataPrefill }>(query, { params: { org_id: orgId, metadata_xml: metadataXml } }))._import_saml_sp_metadata;
}
