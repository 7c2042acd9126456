/**
 * GET /sso/saml/<organization>/metadata: this server's SAML 2.0 service provider metadata for that
 * organization (SAML 2.0 Metadata 2.4.4; its address is the SP's entityID, the well-known location
 * convention of Metadata 4.1), for the organization's administrator to load into the IdP. Served while an
 * enabled organization has a SAML connection; anything else is the same page as an unknown organization,
 * so the address does not tell which organizations exist. The addresses in it are also in the
 * connection's answer (org_saml_connection), so an IdP can be set up by hand before the first connection.
 */
import { defineEndpoint } from '../../ops/endpoint.ts';
import { findOrganization } from '../organizations/index.ts';
import { organizationSignInUnavailable, signInRefusalPage } from '../../ops/sign-in-pages.ts';
import { findSamlConnection } from './saml-connections.service.ts';
import { spMetadataXml } from './saml-sp.ts';
import { MAX_ORG_NAME } from './sso-request.ts';

export const samlMetadataEndpoint = defineEndpoint({
  name: 'org_saml_metadata',
  methods: ['GET'],
  path: '/sso/saml/:org/metadata',
  csrf: 'origin',
  body: 'none',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const { deps, em } = ctx;
    const orgName = request.params.org!;
    const org = orgName.length <= MAX_ORG_NAME ? await findOrganization(em, { name: orgName }) : null;
    const connection = org?.enabled ? await findSamlConnection(em, { orgId: org.id }) : null;
    if (!org || !connection) return organizationSignInUnavailable();
    return {
      kind: 'text',
      contentType: 'application/samlmetadata+xml; charset=utf-8',
      body: spMetadataXml(deps.config, org.name),
      headers: { 'cache-control': 'public, max-age=300' },
    };
  },
});
