/**
 * The client registry's server calls (docs/operations.md, "Client registry"): the admin GraphQL fields
 * `_clients`, `_client`, `_create_client`, `_update_client`, `_rotate_client_secret`, `_delete_client`
 * (server/modules/clients/admin-clients.ops.ts). Only create and rotate answer a secret; the console keeps it
 * in the answering dialog's memory and never in the query cache, so it cannot reappear after the dialog.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer, PageRequest } from '../api/types.ts';

/** docs/api-overview.md#resources-and-fields, "Client"; timestamps are Unix seconds. */
export type OAuthClient = Output<'client'>;

/** The one answer that carries a secret. `previous_secret_expires_at`: after a rotation, when the old one stops. */
export type IssuedClientSecret = Output<'rotate_client_secret'>;

/**
 * What the client form edits, every field set. The per-client OAuth settings (device grant, token exchange,
 * back-channel logout) have their own cards on the client page, which write them with their own operations.
 */
export type ClientFields = Required<Omit<Input<'create_client'>, 'is_active' | 'device_grant_enabled' | 'token_exchange_enabled'
  | 'token_exchange_audiences' | 'backchannel_logout_uri' | 'backchannel_logout_session_required'>>;

export const clientKeys = {
  all: ['clients'] as const,
  list: (page: PageRequest) => [...clientKeys.all, 'list', page] as const,
  lists: () => [...clientKeys.all, 'list'] as const,
  one: (id: string) => [...clientKeys.all, 'one', id] as const,
};

export function useClients(page: PageRequest) {
  return useQuery({
    queryKey: clientKeys.list(page),
    queryFn: ({ signal }) => call('clients', { pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useClient(id: string) {
  return useQuery({
    queryKey: clientKeys.one(id),
    queryFn: ({ signal }) => call('client', { id }, signal),
  });
}

export async function createClient(fields: ClientFields): Promise<IssuedClientSecret> {
  return call('create_client', fields);
}

/** Omitted fields stay as they are on the server. */
export async function updateClient(id: string, changes: Partial<ClientFields> & { is_active?: boolean }): Promise<OAuthClient> {
  return call('update_client', { id, ...changes });
}

export async function rotateClientSecret(id: string): Promise<IssuedClientSecret> {
  return call('rotate_client_secret', { id });
}

export async function deleteClient(id: string): Promise<MessageAnswer> {
  return call('delete_client', { id });
}
