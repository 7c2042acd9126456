/**
 * How far an organization's identity provider may reach into an account (the takeover rule of inbound
 * SCIM). A provider creates accounts only for new addresses in a domain verified for the organization, and
 * links an existing account only when its address was proven (users/address-proof.ts) and the account is
 * already a member of the organization or its email domain is verified for the organization (org-domains:
 * only then has the organization proven it owns the mailbox). An account whose address nobody proved is
 * never linked as it stands: in a verified domain it is taken over cleanly (accounts/clean-takeover.ts: its
 * password, sessions, factors and links go, so whoever registered the address first keeps no way in), and
 * anywhere else refused. Any other existing account is refused 409: otherwise any organization could provision
 * `someone@gmail.com` and attach a stranger's account to itself. A new address elsewhere is refused too:
 * an account made for `someone@gmail.com` before its owner signs up would be governed by the organization
 * (it could later change the address or lock the account) once the owner had reset its password and used it
 * (pre-account hijacking). For the same reason a governed account's address moves only within those domains.
 *
 * The organization governs the account (ScimUser.managesAccount) when SCIM created it or its domain is
 * verified for the organization: then `active: false` and DELETE revoke the account's access everywhere and
 * SCIM may change its email. A member linked without that proof is governed only as a member.
 */
import type { EntityManager } from '@mikro-orm/core';
import { emailDomain, verifiedOrganizationForDomain } from '../org-domains/index.ts';

/** Whether `email`'s domain is verified for this (enabled) organization. */
export async function domainVerifiedForOrg(em: EntityManager, orgId: string, email: string | null | undefined): Promise<boolean> {
  const domain = email ? emailDomain(email) : undefined;
  if (!domain) return false;
  const owner = await verifiedOrganizationForDomain(em, domain);
  return owner?.id === orgId;
}

export const OUTSIDE_VERIFIED_DOMAINS = "only addresses in a domain verified for this organization can be provisioned (the organization's administrator verifies domains first)";
