/**
 * Home-realm discovery (docs/api-overview.md#what-portcullis-does: verified domains for home-realm discovery): given an email
 * address, which organization's IdP signs it in. Public, so it answers domain-level facts only (the same
 * answer for every address of a domain, whether or not an account exists), and only for a domain verified
 * by an enabled organization whose OIDC or SAML connection is enabled; anything else is `sso: false` with
 * no name.
 * Look-ups spend the caller's org_discovery allowance (modules/limits/policies.ts), which bounds how fast
 * one client can map domains to organizations.
 */
import { defineOperation } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { clientKey } from '../limits/index.ts';
import { emailDomain, verifiedOrganizationForDomain } from '../org-domains/index.ts';
import { OrgDiscoveryRequest, OrgDiscoveryResponse } from './org-sso.schema.ts';
import { findConnection } from './connections.service.ts';
import { findSamlConnection } from './saml-connections.service.ts';
import { ssoStartUrl } from './sso-urls.ts';

export const orgDiscoveryOp = defineOperation({
  name: 'org_discovery',
  admin: false,
  kind: 'query',
  description: "Home-realm discovery: whether the email address's domain signs in through an organization's SSO, and where to start it",
  input: OrgDiscoveryRequest,
  output: OrgDiscoveryResponse,
  auth: 'public',
  handler: async (input, ctx) => {
    await ctx.deps.limits.consume('org_discovery', clientKey(ctx.req.ip));
    const domain = emailDomain(input.email.trim());
    if (!domain) throw AppError.invalid('email: give an email address with a domain, such as someone@example.com');
    const org = await verifiedOrganizationForDomain(ctx.em, domain);
    if (!org) return { sso: false };
    const connection = await findConnection(ctx.em, { orgId: org.id });
    if (!connection?.enabled && !(await findSamlConnection(ctx.em, { orgId: org.id }))?.enabled) return { sso: false };
    return { sso: true, organization: org.name, display_name: org.displayName, sso_url: ssoStartUrl(ctx.deps.config, org.name) };
  },
});
