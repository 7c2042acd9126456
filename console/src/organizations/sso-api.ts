/**
 * An organization's OIDC SSO connection (specification part 4.2 "Org SSO connections"): `_org_oidc_connection`
 * (by org id; one per organization), `_create_org_oidc_connection`, `_update_org_oidc_connection` and
 * `_delete_org_oidc_connection` (server/modules/org-sso/connections.ops.ts). The client secret is write-only:
 * the server answers `has_client_secret` and never the secret (part 2).
 */
import { useQuery } from '@tanstack/react-query';
import { ApiError, graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer } from '../api/types.ts';
import { organizationKeys } from './api.ts';

export interface OrgOidcConnection {
  id: string;
  org_id: string;
  issuer: string;
  client_id: string;
  has_client_secret: boolean;
  scopes: string[];
  allowed_email_domains: string[];
  enabled: boolean;
  created_at: number;
  updated_at: number;
}

export interface OidcConnectionFields {
  issuer: string;
  client_id: string;
  /** Absent: keep the stored secret (update) or none (create, for a public client). */
  client_secret?: string;
  scopes: string[];
  allowed_email_domains: string[];
  enabled: boolean;
}

const CONNECTION_FIELDS = 'id org_id issuer client_id has_client_secret scopes allowed_email_domains enabled created_at updated_at';

export const ssoKeys = {
  connection: (orgId: string) => [...organizationKeys.all, 'oidc-connection', orgId] as const,
};

/** The organization's connection, or null when it has none (the server's NOT_FOUND). */
export function useOrgOidcConnection(orgId: string) {
  return useQuery({
    queryKey: ssoKeys.connection(orgId),
    queryFn: async ({ signal }) => {
      const query = `query OrgOidcConnection($params: OrgOidcConnectionRequest!) { _org_oidc_connection(params: $params) { ${CONNECTION_FIELDS} } }`;
      try {
        return (await graphql<{ _org_oidc_connection: OrgOidcConnection }>(query, { params: { org_id: orgId } }, signal))._org_oidc_connection;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
        throw err;
      }
    },
  });
}

export async function createOrgOidcConnection(orgId: string, fields: OidcConnectionFields): Promise<OrgOidcConnection> {
  const mutation = `mutation CreateOrgOidcConnection($params: CreateOrgOidcConnectionRequest!) {
    _create_org_oidc_connection(params: $params) { ${CONNECTION_FIELDS} } }`;
  type Answer = { _create_org_oidc_connection: OrgOidcConnection };
  return (await graphql<Answer>(mutation, { params: { org_id: orgId, ...fields } }))._create_org_oidc_connection;
}

/** Omitted fields stay; an omitted client_secret keeps the stored one. */
export async function updateOrgOidcConnection(id: string, changes: Partial<OidcConnectionFields>): Promise<OrgOidcConnection> {
  const mutation = `mutation UpdateOrgOidcConnection($params: UpdateOrgOidcConnectionRequest!) {
    _update_org_oidc_connection(params: $params) { ${CONNECTION_FIELDS} } }`;
  type Answer = { _update_org_oidc_connection: OrgOidcConnection };
  return (await graphql<Answer>(mutation, { params: { id, ...changes } }))._update_org_oidc_connection;
}

export async function deleteOrgOidcConnection(id: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteOrgOidcConnection($params: DeleteOrgOidcConnectionRequest!) { _delete_org_oidc_connection(params: $params) { message } }';
  return (await graphql<{ _delete_org_oidc_connection: MessageAnswer }>(mutation, { params: { id } }))._delete_org_oidc_connection;
}

/**
 * The two addresses of the organization's SSO on this server (server/modules/org-sso/sso-urls.ts, built from
 * --url, which is the origin the console is served from): the callback to register at the IdP as the redirect
 * URI (one for every organization), and the start URL that begins a sign-in.
 */
export function ssoAddresses(slug: string, origin: string = window.location.origin): { callback: string; start: string } {
  return { callback: `${origin}/sso/oidc/callback`, start: `${origin}/sso/${encodeURIComponent(slug)}/start` };
}
