/**
 * An organization's OIDC SSO connection (docs/operations.md, "Org SSO connections"): `_org_oidc_connection`
 * (by org id; one per organization), `_create_org_oidc_connection`, `_update_org_oidc_connection` and
 * `_delete_org_oidc_connection` (server/modules/org-sso/connections.ops.ts). The client secret is write-only:
 * the server answers `has_client_secret` and never the secret (docs/api-overview.md#resources-and-fields).
 */
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer } from '../api/types.ts';
import { organizationKeys } from './api.ts';

export type OrgOidcConnection = Output<'org_oidc_connection'>;

/** An absent client_secret keeps the stored secret (update) or sets none (create, for a public client). */
export type OidcConnectionFields = Omit<Input<'create_org_oidc_connection'>, 'org_id'>;

export const ssoKeys = {
  connection: (orgId: string) => [...organizationKeys.all, 'oidc-connection', orgId] as const,
};

/** The organization's connection, or null when it has none (the server's NOT_FOUND). */
export function useOrgOidcConnection(orgId: string) {
  return useQuery({
    queryKey: ssoKeys.connection(orgId),
    queryFn: async ({ signal }) => {
      try {
        return await call('org_oidc_connection', { org_id: orgId }, signal);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
        throw err;
      }
    },
  });
}

export async function createOrgOidcConnection(orgId: string, fields: OidcConnectionFields): Promise<OrgOidcConnection> {
  return call('create_org_oidc_connection', { org_id: orgId, ...fields });
}

/** Omitted fields stay; an omitted client_secret keeps the stored one. */
export async function updateOrgOidcConnection(id: string, changes: Partial<OidcConnectionFields>): Promise<OrgOidcConnection> {
  return call('update_org_oidc_connection', { id, ...changes });
}

export async function deleteOrgOidcConnection(id: string): Promise<MessageAnswer> {
  return call('delete_org_oidc_connection', { id });
}

/**
 * The two addresses of the organization's SSO on this server (server/modules/org-sso/sso-urls.ts, built from
 * --url, which is the origin the console is served from): the callback to register at the IdP as the redirect
 * URI (one for every organization), and the start URL that begins a sign-in.
 */
export function ssoAddresses(slug: string, origin: string = window.location.origin): { callback: string; start: string } {
  return { callback: `${origin}/sso/oidc/callback`, start: `${origin}/sso/${encodeURIComponent(slug)}/start` };
}
