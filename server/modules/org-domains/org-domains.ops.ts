/**
 * Org domain operations (docs/operations.md, "Org domains", docs/api-overview.md#states-and-transitions, "Org domain" states). Org-scoped:
 * the super-admin or that organization's org-admins (organizations/org-access.ts), except
 * add_verified_org_domain, which skips the DNS proof and so belongs to the super-admin alone.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { checkedDomain, requireOrgAdmin } from '../organizations/index.ts';
import { AppError } from '../../kernel/errors.ts';
import { DomainChallenge, OrgDomainRequest, OrgDomainSchema, OrgDomains, OrgDomainsRequest, toDomainChallenge, toPublicOrgDomain } from './org-domains.schema.ts';
import { addVerifiedClaim, completeVerification, deleteClaim, findClaim, listClaims, requestClaim } from './org-domains.service.ts';
import { proveDnsControl } from './verification.ts';

export const requestOrgDomainOp = defineOperation({
  name: 'request_org_domain',
  admin: true,
  kind: 'mutation',
  description: 'Claims a domain for an organization and answers the DNS TXT record that proves it; asking again for a pending domain answers the same record (super-admin or its org-admins)',
  input: OrgDomainRequest,
  output: DomainChallenge,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    return toDomainChallenge(await requestClaim(ctx.em, ctx.deps.clock.now(), org.id, checkedDomain(input.domain)));
  },
});

export const verifyOrgDomainOp = defineOperation({
  name: 'verify_org_domain',
  admin: true,
  kind: 'mutation',
  description: "Looks up the domain's challenge TXT record and marks the domain verified when it holds this organization's value (super-admin or its org-admins; a few lookups per organization every ten minutes)",
  input: OrgDomainRequest,
  output: OrgDomainSchema,
  auth: 'user_or_admin',
  // The DNS lookup takes up to seconds: no transaction is held open across it (storage/types.ts rule 9).
  transaction: false,
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    const domain = checkedDomain(input.domain);
    const claim = await findClaim(ctx.em, org.id, domain);
    if (!claim) throw AppError.notFound('this organization has not requested this domain: call request_org_domain first');
    if (claim.state === 'verified') return toPublicOrgDomain(claim);
    await proveDnsControl(ctx.deps, org.id, domain, claim.token);
    const verified = await ctx.deps.storage.fork().transactional((em) => completeVerification(em, ctx.deps.clock.now(), claim.id, claim.token));
    return toPublicOrgDomain(verified);
  },
});

export const addVerifiedOrgDomainOp = defineOperation({
  name: 'add_verified_org_domain',
  admin: true,
  kind: 'mutation',
  description: 'Adds a domain to an organization as verified without any DNS lookup (super-admin only)',
  input: OrgDomainRequest,
  output: OrgDomainSchema,
  auth: 'admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    return toPublicOrgDomain(await addVerifiedClaim(ctx.em, ctx.deps.clock.now(), org.id, checkedDomain(input.domain)));
  },
});

export const deleteOrgDomainOp = defineOperation({
  name: 'delete_org_domain',
  admin: true,
  kind: 'mutation',
  description: "Removes a domain from an organization, pending or verified; its addresses stop routing to the organization at once (super-admin or its org-admins)",
  input: OrgDomainRequest,
  output: MessageResponse,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    await deleteClaim(ctx.em, org.id, checkedDomain(input.domain));
    return { message: 'domain deleted successfully' };
  },
});

export const orgDomainsOp = defineOperation({
  name: 'org_domains',
  admin: true,
  kind: 'query',
  description: "Lists an organization's domains, pending and verified, oldest first (super-admin or its org-admins)",
  input: OrgDomainsRequest,
  output: OrgDomains,
  auth: 'user_or_admin',
  handler: async (input, ctx) => {
    const org = await requireOrgAdmin(ctx, input.org_id);
    const page = await listClaims(ctx.em, org.id, input.pagination);
    return { domains: page.items.map(toPublicOrgDomain), pagination: page.pagination };
  },
});

export const orgDomainOperations = [requestOrgDomainOp, verifyOrgDomainOp, addVerifiedOrgDomainOp, deleteOrgDomainOp, orgDomainsOp];
