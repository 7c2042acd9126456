import { defineEntity, p } from '@mikro-orm/core';

/**
 * A DNS domain claimed by one organization (docs/api-overview.md#states-and-transitions, "Org domain" states; docs/api-overview.md#what-portcullis-does: verified
 * domains drive home-realm discovery). `domain` is the normalised ASCII name (domain-name.ts). `token` is
 * the challenge published as `service-domain-verification=<token>` under `_service-challenge.<domain>`: it
 * is public once published, so it is stored as is, but it is per (organization, domain) row, so one
 * organization's record never verifies another's claim.
 *
 * Several organizations may hold a pending challenge for the same domain; only one may hold it verified.
 * `verifiedDomain` carries the domain only while verified (null otherwise) under a unique index: SQLite,
 * PostgreSQL and MariaDB all let a unique index hold many NULLs, so the database itself refuses a second
 * verified owner even when two verifications race (the service checks first for a clear answer).
 */
export const OrgDomain = defineEntity({
  name: 'OrgDomain',
  tableName: 'org_domains',
  uniques: [{ name: 'org_domains_org_domain', properties: ['orgId', 'domain'] }],
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).index(),
    domain: p.string().length(253).index(),
    /** 'pending' (challenge issued) or 'verified'. */
    state: p.string().length(16),
    token: p.string().length(64),
    verifiedDomain: p.string().length(253).nullable().unique(),
    verifiedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type OrgDomainRow = InstanceType<typeof OrgDomain.class>;

export type OrgDomainState = 'pending' | 'verified';
