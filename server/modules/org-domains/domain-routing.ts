/**
 * Which organization an email domain routes to (docs/api-overview.md#what-portcullis-does: verified domains for home-realm
 * discovery; docs/api-overview.md#states-and-transitions: a removed domain stops routing at once). Only a verified domain of an enabled
 * organization routes; a pending challenge never does. Read fresh on each call (no cache), so that
 * delete_org_domain and disabling the organization take effect for the very next sign-in.
 */
import type { EntityManager } from '@mikro-orm/core';
import { OrgDomain, Organization, normaliseDomain, type OrganizationRow } from '../organizations/index.ts';

/** The enabled organization holding `domain` verified; null otherwise (also for a malformed domain). */
export async function verifiedOrganizationForDomain(em: EntityManager, domain: string): Promise<OrganizationRow | null> {
  const normalised = normaliseDomain(domain);
  if (!normalised) return null;
  const claim = await em.findOne(OrgDomain, { verifiedDomain: normalised, state: 'verified' }, { fields: ['orgId'] });
  if (!claim) return null;
  return em.findOne(Organization, { id: claim.orgId, enabled: true });
}
