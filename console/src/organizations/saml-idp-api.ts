/**
 * The organization as a SAML 2.0 identity provider (docs/api-overview.md#resources-and-fields, "SAML service provider", docs/api-overview.md#states-and-transitions IdP key
 * states, docs/operations.md, "SAML IdP"): its signing keys with their state and its metadata address (`_saml_idp_keys`,
 * which makes the first key on first use), `_rotate_saml_idp_cert`, `_retire_saml_idp_key`, and its service
 * providers (`_saml_service_providers`, `_create/_update/_delete_saml_service_provider`), with
 * `_import_saml_sp_metadata`, which reads pasted SP metadata into prefill fields and stores nothing
 * (server/modules/saml-idp/*.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer, PageRequest } from '../api/types.ts';
import { organizationKeys } from './api.ts';

/**
 * The signing keys with the metadata address (`<--url>/saml/<organization>/metadata`, also the IdP entity id)
 * and the SSO address (`<--url>/saml/<organization>/sso`, HTTP-Redirect and HTTP-POST).
 */
export type SamlIdpKeys = Output<'saml_idp_keys'>;
/** `state`: current (signing), published (in metadata, not signing) or retired. */
export type SamlIdpKey = SamlIdpKeys['keys'][number];

/** `name_id_format`: emailAddress, persistent or unspecified; `slo_binding`: redirect or post, beside slo_url. */
export type SamlServiceProvider = Output<'saml_service_provider'>;
export type SamlAcsEndpoint = SamlServiceProvider['acs_endpoints'][number];
export type SamlAttributeMapping = SamlServiceProvider['attribute_mapping'][number];

/** What the form sends, every list and switch set: a given list replaces the stored one on update. */
export type SamlServiceProviderFields = Omit<Input<'create_saml_service_provider'>, 'org_id'>
  & Required<Pick<Input<'create_saml_service_provider'>, 'attribute_mapping' | 'name_id_format' | 'active'>>;

/** Prefill read from pasted SP metadata; nothing is stored. */
export type SamlSpMetadataPrefill = Output<'import_saml_sp_metadata'>;

export const samlIdpKeys = {
  keys: (orgId: string) => [...organizationKeys.all, 'saml-idp-keys', orgId] as const,
  providers: (orgId: string) => [...organizationKeys.all, 'saml-service-providers', orgId] as const,
};

export function useSamlIdpKeys(orgId: string) {
  return useQuery({
    queryKey: samlIdpKeys.keys(orgId),
    queryFn: ({ signal }) => call('saml_idp_keys', { org_id: orgId }, signal),
  });
}

export async function rotateSamlIdpCert(orgId: string): Promise<SamlIdpKeys> {
  return call('rotate_saml_idp_cert', { org_id: orgId });
}

/** Refused (FAILED_PRECONDITION, in the server's words) for the signing key and for a retired one. */
export async function retireSamlIdpKey(orgId: string, keyId: string): Promise<SamlIdpKeys> {
  return call('retire_saml_idp_key', { org_id: orgId, key_id: keyId });
}

export function useSamlServiceProviders(orgId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...samlIdpKeys.providers(orgId), page],
    queryFn: ({ signal }) => call('saml_service_providers', { org_id: orgId, pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}

export async function createSamlServiceProvider(orgId: string, fields: SamlServiceProviderFields): Promise<SamlServiceProvider> {
  return call('create_saml_service_provider', { org_id: orgId, ...fields });
}

/**
 * Every field is sent: the lists replace the stored ones. No certificate given keeps the stored one unless
 * `removeCertificate`; an empty mapping is sent as clear_attribute_mapping, an absent SLO URL as remove_slo_url.
 */
export async function updateSamlServiceProvider(id: string, fields: SamlServiceProviderFields, removeCertificate: boolean): Promise<SamlServiceProvider> {
  const { attribute_mapping, ...rest } = fields;
  const params = {
    id,
    ...rest,
    ...(attribute_mapping.length > 0 ? { attribute_mapping } : { clear_attribute_mapping: true }),
    ...(removeCertificate && !fields.certificate ? { remove_certificate: true } : {}),
    ...(fields.slo_url ? {} : { remove_slo_url: true }),
  };
  return call('update_saml_service_provider', params);
}

export async function deleteSamlServiceProvider(id: string): Promise<MessageAnswer> {
  return call('delete_saml_service_provider', { id });
}

/** Refused (INVALID_ARGUMENT, in the server's words) for what is not SP metadata or is unsafe XML. */
export async function importSamlSpMetadata(orgId: string, metadataXml: string): Promise<SamlSpMetadataPrefill> {
  return call('import_saml_sp_metadata', { org_id: orgId, metadata_xml: metadataXml });
}
