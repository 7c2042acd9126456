/**
 * The organization sign-ins (OpenID Connect or SAML) linked to an account, in its holder's copy and in its
 * erasure (docs/privacy.md; accounts' onPersonalDataExport and onAccountErased): the organization, its
 * identity provider's subject for the person, and when the link was made.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { PersonalDataSections } from '../accounts/index.ts';
import { OrgSsoIdentity } from './org-sso.entities.ts';

export async function exportOrgSsoIdentities(em: EntityManager, userId: string, sections: PersonalDataSections): Promise<void> {
  const rows = await em.find(OrgSsoIdentity, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  sections.organization_sso_identities = rows.map((row) => ({
    organization_id: row.orgId,
    connection_id: row.connectionId,
    subject: row.subject,
    linked_at: row.createdAt.toISOString(),
  }));
}

export async function eraseOrgSsoIdentities(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(OrgSsoIdentity, { userId });
}
