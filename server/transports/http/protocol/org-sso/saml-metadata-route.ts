/**
 * GET /sso/saml/<organization>/metadata: this server's SAML 2.0 service provider metadata for that
 * organization (SAML 2.0 Metadata 2.4.4; its address is the SP's entityID, the well-known location
 * convention of Metadata 4.1), for the organization's administrator to load into the IdP. Served while an
 * enabled organization has a SAML connection; anything else is the same page as an unknown organization,
 * so the address does not tell which organizations exist. The addresses in it are also in the
 * connection's answer (org_saml_connection), so an IdP can be set up by hand before the first connection.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { findOrganization } from '../../../../modules/organizations/index.ts';
import { findSamlConnection, spMetadataXml } from '../../../../modules/org-sso/index.ts';
import { unavailablePage } from './start-route.ts';

export function samlMetadataRoute(deps: Deps) {
  return async (request: FastifyRequest<{ Params: { org: string } }>, reply: FastifyReply) => {
    const em = deps.storage.fork();
    const org = request.params.org.length <= 63 ? await findOrganization(em, { name: request.params.org }) : null;
    const connection = org?.enabled ? await findSamlConnection(em, { orgId: org.id }) : null;
    if (!org || !connection) return unavailablePage(reply);
    return reply
      .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(spMetadataXml(deps.config, org.name));
  };
}
