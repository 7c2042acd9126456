/**
 * Organization claims of a session opened through an organization's SSO (modules/org-sso): `org_id`,
 * `org_name` and `org_roles` in its access and ID tokens. The organization rides in the session's login
 * method (`org_sso:<org id, 16 bytes base64url>`, 30 characters: it fits the MFA challenge's column and
 * survives the MFA gate's `+<factor>` suffix, session refreshes and the refresh grant unchanged). The
 * claims are read when each token is minted, like roles: a member removed, or an organization disabled or
 * deleted, gets none in the next token.
 */
import type { EntityManager } from '@mikro-orm/core';
import { OrgMember, Organization } from '../organizations/index.ts';

const PREFIX = 'org_sso:';
const ENCODED_ID = /^[A-Za-z0-9_-]{22}$/;

/** The login method of an SSO sign-in into organization `orgId` (a UUID). */
export function orgSsoLoginMethod(orgId: string): string {
  return `${PREFIX}${Buffer.from(orgId.replaceAll('-', ''), 'hex').toString('base64url')}`;
}

/** The organization id an SSO login method names (its first step, before any `+<factor>`), if any. */
export function orgIdOfLoginMethod(loginMethod: string): string | undefined {
  const first = loginMethod.split('+')[0]!;
  if (!first.startsWith(PREFIX)) return undefined;
  const encoded = first.slice(PREFIX.length);
  if (!ENCODED_ID.test(encoded)) return undefined;
  const hex = Buffer.from(encoded, 'base64url').toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface OrgClaims {
  org_id?: string;
  org_name?: string;
  org_roles?: string[];
}

/** The claims of an SSO session into `orgId` (orgIdOfLoginMethod); none unless `userId` is a member of it, enabled. */
export async function orgClaimsFor(em: EntityManager, orgId: string, userId: string): Promise<OrgClaims> {
  const org = await em.findOne(Organization, { id: orgId, enabled: true }, { fields: ['id', 'name'] });
  if (!org) return {};
  const member = await em.findOne(OrgMember, { orgId, userId }, { fields: ['roles'] });
  if (!member) return {};
  return { org_id: org.id, org_name: org.name, org_roles: [...member.roles] };
}
