/**
 * Organizations for B2B (specification parts 2 and 4.2): organizations, their members with org roles, and the
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
export { findOrganization, organizationsOfUser, removeAllMemberships, checkedSlug } from './organizations.service.ts';

export const organizationsModule = defineModule({
  name: 'organizations',
  entities: [Organization, OrgMember],
  operations: [...organizationOperations, ...memberOperations],
});
