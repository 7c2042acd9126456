/**
 * An organization's SAML 2.0 SSO connection, this server as the service provider
 * (docs/operations.md, "Org SSO connections"): `_org_saml_connection` (by org id; one per organization), `_create_org_saml_connection`,
 * `_update_org_saml_connection` and `_delete_org_saml_connection` (server/modules/org-sso/saml-connections.ops.ts).
 * IdP certificates are answered by fingerprint; a new PEM replaces the stored ones, none given keeps them
 * (docs/api-overview.md#resources-and-fields).
 */
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer } from '../api/types.ts';
import { organizationKeys } from './api.ts';

/** `sp_entity_id` is `<--url>/sso/saml/<organization>/metadata`, `sp_acs_url` its `/acs` (HTTP-POST). */
export type OrgSamlConnection = Output<'org_saml_connection'>;
export type SamlIdpCertificate = OrgSamlConnection['idp_certificates'][number];

/** What the form sends: the certificate is absent on an update that keeps the stored ones. */
export type SamlConnectionFields = Omit<Input<'create_org_saml_connection'>, 'org_id' | 'idp_certificate'> & { idp_certificate?: string };

export const samlKeys = {
  connection: (orgId: string) => [...organizationKeys.all, 'saml-connection', orgId] as const,
};

/** The organization's SAML connection, or null when it has none (the server's NOT_FOUND). */
export function useOrgSamlConnection(orgId: string) {
  return useQuery({
    queryKey: samlKeys.connection(orgId),
    queryFn: async ({ signal }) => {
      try {
        return await call('org_saml_connection', { org_id: orgId }, signal);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
        throw err;
      }
    },
  });
}

export async function createOrgSamlConnection(orgId: string, fields: SamlConnectionFields): Promise<OrgSamlConnection> {
  // A new connection without a certificate is refused by the server in its own words, shown by the form.
  return call('create_org_saml_connection', { org_id: orgId, ...fields } as Input<'create_org_saml_connection'>);
}

/** Omitted fields stay; an omitted idp_certificate keeps the stored certificates. */
export async function updateOrgSamlConnection(id: string, changes: Partial<SamlConnectionFields>): Promise<OrgSamlConnection> {
  return call('update_org_saml_connection', { id, ...changes });
}

export async function deleteOrgSamlConnection(id: string): Promise<MessageAnswer> {
  return call('delete_org_saml_connection', { id });
}

/**
 * The service provider's own addresses to register at the IdP (server/modules/org-sso/sso-urls.ts, built from
 * --url, the origin the console is served from); a connection's answer names them too.
 */
export function samlSpAddresses(slug: string, origin: string = window.location.origin): { entityId: string; acsUrl: string } {
  const base = `${origin}/sso/saml/${encodeURIComponent(slug)}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs` };
}
