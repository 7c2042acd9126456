/**
 * Trusted issuers of a client (specification part 2 "Trusted issuer", part 4.2): the admin GraphQL fields
 * `_trusted_issuers` (filtered by the owning client's client_id), `_add_trusted_issuer`,
 * `_update_trusted_issuer` and `_delete_trusted_issuer` (server/modules/clients/trusted-issuers.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer, PageRequest, Pagination } from '../api/types.ts';

export interface TrustedIssuer {
  id: string;
  client_id: string;
  name: string;
  issuer: string;
  jwks_url: string;
  audience: string;
  subject_claim: string;
  spiffe_hint?: string | null;
  is_active: boolean;
  created_at: number;
  updated_at: number;
}

export interface NewTrustedIssuer {
  client_id: string;
  name: string;
  issuer: string;
  jwks_url: string;
  /** Absent: the server's token endpoint URL. */
  audience?: string;
  /** Absent: `sub`. */
  subject_claim?: string;
  spiffe_hint?: string;
  is_active: boolean;
}

/** The server lets an update change these only; issuer and subject claim are fixed at creation. */
export type TrustedIssuerChanges = Partial<Pick<TrustedIssuer, 'name' | 'jwks_url' | 'audience' | 'is_active'>> & { spiffe_hint?: string };

const ISSUER_FIELDS = 'id client_id name issuer jwks_url audience subject_claim spiffe_hint is_active created_at updated_at';

export const issuerKeys = {
  all: ['trusted-issuers'] as const,
  ofClient: (clientId: string) => [...issuerKeys.all, clientId] as const,
};

export function useTrustedIssuers(clientId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...issuerKeys.ofClient(clientId), page],
    queryFn: async ({ signal }) => {
      const query = `query TrustedIssuers($params: TrustedIssuersRequest!) { _trusted_issuers(params: $params) {
        trusted_issuers { ${ISSUER_FIELDS} } pagination { limit page offset total } } }`;
      type Answer = { _trusted_issuers: { trusted_issuers: TrustedIssuer[]; pagination: Pagination } };
      return (await graphql<Answer>(query, { params: { client_id: clientId, pagination: page } }, signal))._trusted_issuers;
    },
    placeholderData: keepPreviousData,
  });
}

export async function addTrustedIssuer(input: NewTrustedIssuer): Promise<TrustedIssuer> {
  const mutation = `mutation AddTrustedIssuer($params: AddTrustedIssuerRequest!) { _add_trusted_issuer(params: $params) { ${ISSUER_FIELDS} } }`;
  return (await graphql<{ _add_trusted_issuer: TrustedIssuer }>(mutation, { params: input }))._add_trusted_issuer;
}

export async function updateTrustedIssuer(id: string, changes: TrustedIssuerChanges): Promise<TrustedIssuer> {
  const mutation = `mutation UpdateTrustedIssuer($params: UpdateTrustedIssuerRequest!) { _update_trusted_issuer(params: $params) { ${ISSUER_FIELDS} } }`;
  return (await graphql<{ _update_trusted_issuer: TrustedIssuer }>(mutation, { params: { id, ...changes } }))._update_trusted_issuer;
}

export async function deleteTrustedIssuer(id: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteTrustedIssuer($params: TrustedIssuerIdRequest!) { _delete_trusted_issuer(params: $params) { message } }';
  return (await graphql<{ _delete_trusted_issuer: MessageAnswer }>(mutation, { params: { id } }))._delete_trusted_issuer;
}
