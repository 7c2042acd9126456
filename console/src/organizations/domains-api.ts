/**
 * An organization's domains (specification part 3 "Org domain" transitions, part 4.2 "Org domains";
 * reference.md "Domain challenge"): `_org_domains`, `_request_org_domain`, `_verify_org_domain`,
 * `_add_verified_org_domain` (super-admin only: DNS skipped) and `_delete_org_domain`
 * (server/modules/org-domains/org-domains.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer, PageRequest, Pagination } from '../api/types.ts';
import { organizationKeys } from './api.ts';

export interface OrgDomain {
  id: string;
  org_id: string;
  domain: string;
  /** pending or verified */
  state: string;
  record_name: string;
  record_value: string;
  verified_at?: number | null;
  created_at: number;
}

/** The DNS TXT record that proves control of the domain: `_service-challenge.<domain>` holding the token. */
export interface DomainChallenge {
  domain: string;
  record_type: string;
  record_name: string;
  record_value: string;
}

const DOMAIN_FIELDS = 'id org_id domain state record_name record_value verified_at created_at';

export const domainKeys = {
  list: (orgId: string) => [...organizationKeys.all, 'domains', orgId] as const,
};

export function useOrgDomains(orgId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...domainKeys.list(orgId), page],
    queryFn: async ({ signal }) => {
      const query = `query OrgDomains($params: OrgDomainsRequest!) { _org_domains(params: $params) {
        domains { ${DOMAIN_FIELDS} } pagination { limit page offset total } } }`;
      type Answer = { _org_domains: { domains: OrgDomain[]; pagination: Pagination } };
      return (await graphql<Answer>(query, { params: { org_id: orgId, pagination: page } }, signal))._org_domains;
    },
    placeholderData: keepPreviousData,
  });
}

export async function requestOrgDomain(orgId: string, domain: string): Promise<DomainChallenge> {
  const mutation = `mutation RequestOrgDomain($params: OrgDomainRequest!) { _request_org_domain(params: $params) {
    domain record_type record_name record_value } }`;
  return (await graphql<{ _request_org_domain: DomainChallenge }>(mutation, { params: { org_id: orgId, domain } }))._request_org_domain;
}

/** Refused (FAILED_PRECONDITION, in the server's words) until the TXT record is published. */
export async function verifyOrgDomain(orgId: string, domain: string): Promise<OrgDomain> {
  const mutation = `mutation VerifyOrgDomain($params: OrgDomainRequest!) { _verify_org_domain(params: $params) { ${DOMAIN_FIELDS} } }`;
  return (await graphql<{ _verify_org_domain: OrgDomain }>(mutation, { params: { org_id: orgId, domain } }))._verify_org_domain;
}

export async function addVerifiedOrgDomain(orgId: string, domain: string): Promise<OrgDomain> {
  const mutation = `mutation AddVerifiedOrgDomain($params: OrgDomainRequest!) { _add_verified_org_domain(params: $params) { ${DOMAIN_FIELDS} } }`;
  return (await graphql<{ _add_verified_org_domain: OrgDomain }>(mutation, { params: { org_id: orgId, domain } }))._add_verified_org_domain;
}

export async function deleteOrgDomain(orgId: string, domain: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteOrgDomain($params: OrgDomainRequest!) { _delete_org_domain(params: $params) { message } }';
  return (await graphql<{ _delete_org_domain: MessageAnswer }>(mutation, { params: { org_id: orgId, domain } }))._delete_org_domain;
}
