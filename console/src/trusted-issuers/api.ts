/**
 * Trusted issuers of a client (docs/api-overview.md#resources-and-fields, "Trusted issuer", docs/operations.md): the admin GraphQL fields
 * `_trusted_issuers` (filtered by the owning client's client_id), `_add_trusted_issuer`,
 * `_update_trusted_issuer` and `_delete_trusted_issuer` (server/modules/clients/trusted-issuers.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer, PageRequest } from '../api/types.ts';

export type TrustedIssuer = Output<'add_trusted_issuer'>;

/**
 * A new issuer of a client (the console always names the client; audience absent: the server's token
 * endpoint URL; subject claim absent: `sub`).
 */
export type NewTrustedIssuer = Input<'add_trusted_issuer'> & { client_id: string; is_active: boolean };

/** The server lets an update change these only; issuer and subject claim are fixed at creation. */
export type TrustedIssuerChanges = Omit<Input<'update_trusted_issuer'>, 'id'>;

export const issuerKeys = {
  all: ['trusted-issuers'] as const,
  ofClient: (clientId: string) => [...issuerKeys.all, clientId] as const,
};

export function useTrustedIssuers(clientId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...issuerKeys.ofClient(clientId), page],
    queryFn: ({ signal }) => call('trusted_issuers', { client_id: clientId, pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}

export async function addTrustedIssuer(input: NewTrustedIssuer): Promise<TrustedIssuer> {
  return call('add_trusted_issuer', input);
}

export async function updateTrustedIssuer(id: string, changes: TrustedIssuerChanges): Promise<TrustedIssuer> {
  return call('update_trusted_issuer', { id, ...changes });
}

export async function deleteTrustedIssuer(id: string): Promise<MessageAnswer> {
  return call('delete_trusted_issuer', { id });
}
