/**
 * An organization's domains (docs/api-overview.md#states-and-transitions, "Org domain" transitions, docs/operations.md, "Org domains";
 * docs/api-overview.md#resources-and-fields, "Domain challenge"): `_org_domains`, `_request_org_domain`, `_verify_org_domain`,
 * `_add_verified_org_domain` (super-admin only: DNS skipped) and `_delete_org_domain`
 * (server/modules/org-domains/org-domains.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer, PageRequest } from '../api/types.ts';
import { organizationKeys } from './api.ts';

/** `state`: pending or verified. */
export type OrgDomain = Output<'verify_org_domain'>;

/** The DNS TXT record that proves control of the domain: `_service-challenge.<domain>` holding the token. */
export type DomainChallenge = Output<'request_org_domain'>;

export const domainKeys = {
  list: (orgId: string) => [...organizationKeys.all, 'domains', orgId] as const,
};

export function useOrgDomains(orgId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...domainKeys.list(orgId), page],
    queryFn: ({ signal }) => call('org_domains', { org_id: orgId, pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}

export async function requestOrgDomain(orgId: string, domain: string): Promise<DomainChallenge> {
  return call('request_org_domain', { org_id: orgId, domain });
}

/** Refused (FAILED_PRECONDITION, in the server's words) until the TXT record is published. */
export async function verifyOrgDomain(orgId: string, domain: string): Promise<OrgDomain> {
  return call('verify_org_domain', { org_id: orgId, domain });
}

export async function addVerifiedOrgDomain(orgId: string, domain: string): Promise<OrgDomain> {
  return call('add_verified_org_domain', { org_id: orgId, domain });
}

export async function deleteOrgDomain(orgId: string, domain: string): Promise<MessageAnswer> {
  return call('delete_org_domain', { org_id: orgId, domain });
}
