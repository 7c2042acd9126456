/**
 * An organization's inbound SCIM 2.0 endpoint (specification part 4.2 "SCIM"; reference.md: create and rotate
 * answer `{scim_endpoint, token}`): `_scim_endpoint` (whether one exists and the base URL, never the token),
 * `_create_scim_endpoint`, `_rotate_scim_token` (the old token is refused at once) and `_delete_scim_endpoint`
 * (server/modules/scim/scim-endpoints.ops.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer } from '../api/types.ts';
import { organizationKeys } from './api.ts';

export interface ScimEndpoint {
  id: string;
  org_id: string;
  base_url: string;
  token_rotated_at: number;
  last_used_at?: number | null;
  created_at: number;
}

export interface ScimEndpointStatus {
  org_id: string;
  base_url: string;
  exists: boolean;
  scim_endpoint?: ScimEndpoint | null;
}

/** The bearer token for the identity provider, shown this once. */
export interface IssuedScimToken {
  scim_endpoint: ScimEndpoint;
  token: string;
}

const ENDPOINT_FIELDS = 'id org_id base_url token_rotated_at last_used_at created_at';

export const scimKeys = {
  endpoint: (orgId: string) => [...organizationKeys.all, 'scim-endpoint', orgId] as const,
};

export function useScimEndpoint(orgId: string) {
  return useQuery({
    queryKey: scimKeys.endpoint(orgId),
    queryFn: async ({ signal }) => {
      const query = `query ScimEndpoint($params: ScimEndpointRequest!) { _scim_endpoint(params: $params) {
        org_id base_url exists scim_endpoint { ${ENDPOINT_FIELDS} } } }`;
      return (await graphql<{ _scim_endpoint: ScimEndpointStatus }>(query, { params: { org_id: orgId } }, signal))._scim_endpoint;
    },
  });
}

export async function createScimEndpoint(orgId: string): Promise<IssuedScimToken> {
  const mutation = `mutation CreateScimEndpoint($params: ScimEndpointRequest!) { _create_scim_endpoint(params: $params) {
    scim_endpoint { ${ENDPOINT_FIELDS} } token } }`;
  return (await graphql<{ _create_scim_endpoint: IssuedScimToken }>(mutation, { params: { org_id: orgId } }))._create_scim_endpoint;
}

export async function rotateScimToken(orgId: string): Promise<IssuedScimToken> {
  const mutation = `mutation RotateScimToken($params: ScimEndpointRequest!) { _rotate_scim_token(params: $params) {
    scim_endpoint { ${ENDPOINT_FIELDS} } token } }`;
  return (await graphql<{ _rotate_scim_token: IssuedScimToken }>(mutation, { params: { org_id: orgId } }))._rotate_scim_token;
}

export async function deleteScimEndpoint(orgId: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteScimEndpoint($params: ScimEndpointRequest!) { _delete_scim_endpoint(params: $params) { message } }';
  return (await graphql<{ _delete_scim_endpoint: MessageAnswer }>(mutation, { params: { org_id: orgId } }))._delete_scim_endpoint;
}
