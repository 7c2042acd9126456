/**
 * Organizations for B2B (docs/api-overview.md#resources-and-fields, docs/operations.md): organizations, their members with org roles, and the
 * org-admin rule every org-scoped operation applies (org-access.ts). Domains, SSO connections and SCIM
 * endpoints are records scoped to one organization (an `orgId` property), removed with it.
 */
import { defineModule } from '../manifest.ts';
import { OrgMember, Organization } from './organization.entity.ts';
import { organizationOperations } from './organizations.ops.ts';
import { memberOperations } from './members.ops.ts';

export { Organization, OrgMember, type OrganizationRow, type OrgMemberRow } from './organization.entity.ts';
export { ORG_ADMIN_ROLE, OrganizationSchema, toPublicOrganization, type PublicOrganization } from './organizations.schema.ts';
export { requireOrgAdmin, isSuperAdmin, type OrgAccessContext } from './org-access.ts';
export { findOrganization, organizationsOfUser, removeAllMemberships, onUserLeftAllOrganizations, checkedSlug } from './organizations.service.ts';
// An organization's domain rows and their spelling rules live here because the org-admin rule reads them
// (member-admission.ts); the org-domains module above proves, routes and serves them, and lists the entity.
export { OrgDomain, type OrgDomainRow, type OrgDomainState } from './org-domain.entity.ts';
export { checkedDomain, emailDomain, normaliseDomain } from './domain-name.ts';

export const organizationsModule = defineModule({
  name: 'organizations',
  entities: [Organization, OrgMember],
  operations: [...organizationOperations, ...memberOperations],
});
