/**
 * An organization's SAML 2.0 SSO connection, this server as the service provider (specification part 4.2
 * "Org SSO connections"): `_org_saml_connection` (by org id; one per organization), `_create_org_saml_connection`,
 * `_update_org_saml_connection` and `_delete_org_saml_connection` (server/modules/org-sso/saml-connections.ops.ts).
 * IdP certificates are answered by fingerprint; a new PEM replaces the stored ones, none given keeps them (part 2).
 */
import { useQuery } from '@tanstack/react-query';
import { ApiError, graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer } from '../api/types.ts';
import { organizationKeys } from './api.ts';

export interface SamlIdpCertificate {
  fingerprint_sha256: string;
  subject: string;
  not_after: number;
}

export interface OrgSamlConnection {
  id: string;
  org_id: string;
  idp_entity_id: string;
  idp_sso_url: string;
  idp_certificates: SamlIdpCertificate[];
  email_attribute?: string | null;
  given_name_attribute?: string | null;
  family_name_attribute?: string | null;
  allowed_email_domains: string[];
  enabled: boolean;
  /** `<--url>/sso/saml/<organization>/metadata` */
  sp_entity_id: string;
  /** `<--url>/sso/saml/<organization>/acs` (HTTP-POST) */
  sp_acs_url: string;
  created_at: number;
  updated_at: number;
}

export interface SamlConnectionFields {
  idp_entity_id: string;
  idp_sso_url: string;
  /** Absent on update: keep the stored certificates. */
  idp_certificate?: string;
  email_attribute?: string;
  given_name_attribute?: string;
  family_name_attribute?: string;
  allowed_email_domains: string[];
  enabled: boolean;
}

const CONNECTION_FIELDS = `id org_id idp_entity_id idp_sso_url idp_certificates { fingerprint_sha256 subject not_after }
  email_attribute given_name_attribute family_name_attribute allowed_email_domains enabled sp_entity_id sp_acs_url created_at updated_at`;

export const samlKeys = {
  connection: (orgId: string) => [...organizationKeys.all, 'saml-connection', orgId] as const,
};

/** The organization's SAML connection, or null when it has none (the server's NOT_FOUND). */
export function useOrgSamlConnection(orgId: string) {
  return useQuery({
    queryKey: samlKeys.connection(orgId),
    queryFn: async ({ signal }) => {
      const query = `query OrgSamlConnection($params: OrgSamlConnectionRequest!) { _org_saml_connection(params: $params) { ${CONNECTION_FIELDS} } }`;
      try {
        return (await graphql<{ _org_saml_connection: OrgSamlConnection }>(query, { params: { org_id: orgId } }, signal))._org_saml_connection;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
        throw err;
      }
    },
  });
}

export async function createOrgSamlConnection(orgId: string, fields: SamlConnectionFields): Promise<OrgSamlConnection> {
  const mutation = `mutation CreateOrgSamlConnection($params: CreateOrgSamlConnectionRequest!) {
    _create_org_saml_connection(params: $params) { ${CONNECTION_FIELDS} } }`;
  type Answer = { _create_org_saml_connection: OrgSamlConnection };
  return (await graphql<Answer>(mutation, { params: { org_id: orgId, ...fields } }))._create_org_saml_connection;
}

/** Omitted fields stay; an omitted idp_certificate keeps the stored certificates. */
export async function updateOrgSamlConnection(id: string, changes: Partial<SamlConnectionFields>): Promise<OrgSamlConnection> {
  const mutation = `mutation UpdateOrgSamlConnection($params: UpdateOrgSamlConnectionRequest!) {
    _update_org_saml_connection(params: $params) { ${CONNECTION_FIELDS} } }`;
  type Answer = { _update_org_saml_connection: OrgSamlConnection };
  return (await graphql<Answer>(mutation, { params: { id, ...changes } }))._update_org_saml_connection;
}

export async function deleteOrgSamlConnection(id: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteOrgSamlConnection($params: DeleteOrgSamlConnectionRequest!) { _delete_org_saml_connection(params: $params) { message } }';
  return (await graphql<{ _delete_org_saml_connection: MessageAnswer }>(mutation, { params: { id } }))._delete_org_saml_connection;
}

/**
 * The service provider's own addresses to register at the IdP (server/modules/org-sso/sso-urls.ts, built from
 * --url, the origin the console is served from); a connection's answer names them too.
 */
export function samlSpAddresses(slug: string, origin: string = window.location.origin): { entityId: string; acsUrl: string } {
  const base = `${origin}/sso/saml/${encodeURIComponent(slug)}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs` };
}
