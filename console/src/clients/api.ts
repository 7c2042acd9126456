/**
 * The client registry's server calls (specification part 4.2 "Client registry"): the admin GraphQL fields
 * `_clients`, `_client`, `_create_client`, `_update_client`, `_rotate_client_secret`, `_delete_client`
 * (server/modules/clients/admin-clients.ops.ts). Only create and rotate answer a secret; the console keeps it
 * in the answering dialog's memory and never in the query cache, so it cannot reappear after the dialog.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer, PageRequest, Pagination } from '../api/types.ts';

/** reference.md "Client"; timestamps are Unix seconds. */
export interface OAuthClient {
  id: string;
  client_id: string;
  name: string;
  description: string;
  allowed_scopes: string[];
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  consent_required: boolean;
  is_active: boolean;
  created_at: number;
  updated_at: number;
}

/** The one answer that carries a secret. `previous_secret_expires_at`: after a rotation, when the old one stops. */
export interface IssuedClientSecret {
  client: OAuthClient;
  client_secret: string;
  previous_secret_expires_at?: number | null;
}

export interface ClientFields {
  name: string;
  description: string;
  allowed_scopes: string[];
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  consent_required: boolean;
}

const CLIENT_FIELDS = 'id client_id name description allowed_scopes redirect_uris post_logout_redirect_uris consent_required is_active created_at updated_at';

export const clientKeys = {
  all: ['clients'] as const,
  list: (page: PageRequest) => [...clientKeys.all, 'list', page] as const,
  lists: () => [...clientKeys.all, 'list'] as const,
  one: (id: string) => [...clientKeys.all, 'one', id] as const,
};

export function useClients(page: PageRequest) {
  return useQuery({
    queryKey: clientKeys.list(page),
    queryFn: async ({ signal }) => {
      const query = `query Clients($params: ClientsRequest!) { _clients(params: $params) {
        clients { ${CLIENT_FIELDS} } pagination { limit page offset total } } }`;
      type Answer = { _clients: { clients: OAuthClient[]; pagination: Pagination } };
      return (await graphql<Answer>(query, { params: { pagination: page } }, signal))._clients;
    },
    placeholderData: keepPreviousData,
  });
}

export function useClient(id: string) {
  return useQuery({
    queryKey: clientKeys.one(id),
    queryFn: async ({ signal }) => {
      const query = `query Client($params: GetClientRequest!) { _client(params: $params) { ${CLIENT_FIELDS} } }`;
      return (await graphql<{ _client: OAuthClient }>(query, { params: { id } }, signal))._client;
    },
  });
}

export async function createClient(fields: ClientFields): Promise<IssuedClientSecret> {
  const mutation = `mutation CreateClient($params: CreateClientRequest!) { _create_client(params: $params) {
    client { ${CLIENT_FIELDS} } client_secret } }`;
  return (await graphql<{ _create_client: IssuedClientSecret }>(mutation, { params: fields }))._create_client;
}

/** Omitted fields stay as they are on the server. */
export async function updateClient(id: string, changes: Partial<ClientFields> & { is_active?: boolean }): Promise<OAuthClient> {
  const mutation = `mutation UpdateClient($params: UpdateClientRequest!) { _update_client(params: $params) { ${CLIENT_FIELDS} } }`;
  return (await graphql<{ _update_client: OAuthClient }>(mutation, { params: { id, ...changes } }))._update_client;
}

export async function rotateClientSecret(id: string): Promise<IssuedClientSecret> {
  const mutation = `mutation RotateClientSecret($params: ClientIdRequest!) { _rotate_client_secret(params: $params) {
    client { ${CLIENT_FIELDS} } client_secret previous_secret_expires_at } }`;
  return (await graphql<{ _rotate_client_secret: IssuedClientSecret }>(mutation, { params: { id } }))._rotate_client_secret;
}

export async function deleteClient(id: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteClient($params: ClientIdRequest!) { _delete_client(params: $params) { message } }';
  return (await graphql<{ _delete_client: MessageAnswer }>(mutation, { params: { id } }))._delete_client;
}
