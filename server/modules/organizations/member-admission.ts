/**
 * Whom an org-admin may bring into their organization. The super-admin adds anyone. An org-admin adds only a
 * user whose email domain is verified for this organization (docs/api-overview.md#states-and-transitions: a verified domain belongs
 * to one organization at a time), or changes the roles of someone who is already a member. Otherwise any
 * org-admin who learned a user id could enrol a stranger, read the stranger's profile through org_members,
 * and put their organization's name and roles into that person's SSO tokens.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Caller } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from '../users/index.ts';
import { OrgDomain } from './org-domain.entity.ts';
import { emailDomain } from './domain-name.ts';
import { OrgMember } from './organization.entity.ts';

export const ADMISSION_REFUSED = "an org-admin adds only users of the organization's verified domains; ask the super-admin to add this user";

export async function assertMayAdmit(em: EntityManager, caller: Caller, orgId: string, user: UserRow): Promise<void> {
  if (caller.kind === 'super_admin') return;
  if (await em.count(OrgMember, { orgId, userId: user.id })) return;
  const domain = user.email ? emailDomain(user.email) : undefined;
  // Only a verified email vouches for the domain; an unverified address could name anybody's domain.
  const verified = domain && user.emailVerifiedAt ? await em.count(OrgDomain, { orgId, verifiedDomain: domain, state: 'verified' }) : 0;
  if (!verified) throw AppError.forbidden(ADMISSION_REFUSED);
}
