/**
 * The social sign-ins linked to an account, in its holder's copy and in its erasure (docs/privacy.md;
 * accounts' onPersonalDataExport and onAccountErased): which provider, the provider's subject for the
 * person, and when the link was made.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { PersonalDataSections } from '../accounts/index.ts';
import { SocialIdentity } from './social.entities.ts';

export async function exportSocialIdentities(em: EntityManager, userId: string, sections: PersonalDataSections): Promise<void> {
  const rows = await em.find(SocialIdentity, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  sections.social_identities = rows.map((row) => ({ provider: row.provider, subject: row.subject, linked_at: row.createdAt.toISOString() }));
}

export async function eraseSocialIdentities(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(SocialIdentity, { userId });
}
