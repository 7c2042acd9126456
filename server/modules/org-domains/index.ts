/**
 * Organization domains (specification part 3 "Org domain" states, part 4.2 "Org domains"): an organization
 * claims a DNS domain, proves it with a TXT record (reference.md "Domain challenge"), or the super-admin adds
 * it verified; a verified domain routes its email addresses to the organization (home-realm discovery).
 */
import { defineModule } from '../manifest.ts';
import { OrgDomain } from './org-domain.entity.ts';
import { orgDomainOperations } from './org-domains.ops.ts';

export { OrgDomain, type OrgDomainRow, type OrgDomainState } from './org-domain.entity.ts';
export { verifiedOrganizationForDomain } from './domain-routing.ts';
export { emailDomain, normaliseDomain } from './domain-name.ts';

export const orgDomainsModule = defineModule({
  name: 'org-domains',
  entities: [OrgDomain],
  operations: orgDomainOperations,
});
