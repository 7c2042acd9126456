/**
 * Organization domains (docs/api-overview.md#states-and-transitions, "Org domain" states, docs/operations.md, "Org domains"): an organization
 * claims a DNS domain, proves it with a TXT record (docs/api-overview.md#resources-and-fields, "Domain challenge"), or the super-admin adds
 * it verified; a verified domain routes its email addresses to the organization (home-realm discovery).
 */
import { defineModule } from '../manifest.ts';
import { OrgDomain } from '../organizations/index.ts';
import { orgDomainOperations } from './org-domains.ops.ts';

export { OrgDomain, type OrgDomainRow, type OrgDomainState, emailDomain, normaliseDomain } from '../organizations/index.ts';
export { verifiedOrganizationForDomain } from './domain-routing.ts';

export const orgDomainsModule = defineModule({
  name: 'org-domains',
  entities: [OrgDomain],
  operations: orgDomainOperations,
});
