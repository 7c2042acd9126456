/**
 * An organization's inbound SCIM 2.0 endpoint (docs/operations.md, "SCIM"; docs/api-overview.md#resources-and-fields: create and rotate
 * answer `{scim_endpoint, token}`): `_scim_endpoint` (whether one exists and the base URL, never the token),
 * `_create_scim_endpoint`, `_rotate_scim_token` (the old token is refused at once) and `_delete_scim_endpoint`
 * (server/modules/scim/scim-endpoints.ops.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { call, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer } from '../api/types.ts';
import { organizationKeys } from './api.ts';

export type ScimEndpointStatus = Output<'scim_endpoint'>;
export type ScimEndpoint = NonNullable<ScimEndpointStatus['scim_endpoint']>;

/** The bearer token for the identity provider, shown this once. */
export type IssuedScimToken = Output<'create_scim_endpoint'>;

export const scimKeys = {
  endpoint: (orgId: string) => [...organizationKeys.all, 'scim-endpoint', orgId] as const,
};

export function useScimEndpoint(orgId: string) {
  return useQuery({
    queryKey: scimKeys.endpoint(orgId),
    queryFn: ({ signal }) => call('scim_endpoint', { org_id: orgId }, signal),
  });
}

export async function createScimEndpoint(orgId: string): Promise<IssuedScimToken> {
  return call('create_scim_endpoint', { org_id: orgId });
}

export async function rotateScimToken(orgId: string): Promise<IssuedScimToken> {
  return call('rotate_scim_token', { org_id: orgId });
}

export async function deleteScimEndpoint(orgId: string): Promise<MessageAnswer> {
  return call('delete_scim_endpoint', { org_id: orgId });
}
