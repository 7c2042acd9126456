/**
 * Wire shapes of the org domain operations (docs/operations.md, "Org domains"; the domain
 * challenge of docs/api-overview.md#resources-and-fields). The challenge record is part of every OrgDomain: DNS publishes it anyway, and an org-admin
 * who lost it can read it again. Timestamps in Unix seconds, as the other admin records.
 */
import { s, type Static } from '../../ops/schema.ts';
import { Pagination, PaginationRequest } from '../../ops/pagination.ts';
import type { OrgDomainRow, OrgDomainState } from '../organizations/index.ts';
import { CHALLENGE_RECORD_TYPE, challengeRecordName, challengeRecordValue } from './challenge.ts';

const orgId = s.string({ minLength: 1, maxLength: 64 });
// Room for a Unicode spelling of a 253-octet ASCII name; organizations/domain-name.ts applies the real limits.
const domain = s.string({ minLength: 1, maxLength: 1024, description: 'host name such as example.com (Unicode names are stored in their ASCII form)' });

export const DomainChallenge = s.object('DomainChallenge', {
  domain: s.string(),
  record_type: s.string(),
  record_name: s.string(),
  record_value: s.string(),
});

export const OrgDomainSchema = s.object('OrgDomain', {
  id: s.string(),
  org_id: s.string(),
  domain: s.string(),
  state: s.string({ description: 'pending or verified' }),
  record_name: s.string(),
  record_value: s.string(),
  verified_at: s.optional(s.int64()),
  created_at: s.int64(),
  updated_at: s.int64(),
});

/** request_org_domain, verify_org_domain, add_verified_org_domain and delete_org_domain all name one claim. */
export const OrgDomainRequest = s.object('OrgDomainRequest', { org_id: orgId, domain });

export const OrgDomainsRequest = s.object('OrgDomainsRequest', {
  org_id: orgId,
  pagination: s.optional(PaginationRequest),
});

export const OrgDomains = s.object('OrgDomains', {
  domains: s.list(OrgDomainSchema),
  pagination: Pagination,
});

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toDomainChallenge(row: OrgDomainRow): Static<typeof DomainChallenge> {
  return {
    domain: row.domain,
    record_type: CHALLENGE_RECORD_TYPE,
    record_name: challengeRecordName(row.domain),
    record_value: challengeRecordValue(row.token),
  };
}

export function toPublicOrgDomain(row: OrgDomainRow): Static<typeof OrgDomainSchema> {
  return {
    id: row.id,
    org_id: row.orgId,
    domain: row.domain,
    state: row.state as OrgDomainState,
    record_name: challengeRecordName(row.domain),
    record_value: challengeRecordValue(row.token),
    ...(row.verifiedAt ? { verified_at: seconds(row.verifiedAt) } : {}),
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
  };
}
