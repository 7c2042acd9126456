/**
 * GET /saml/<organization>/metadata: the organization's SAML IdP metadata (saml-idp/idp-metadata.ts), its
 * address being the IdP's entity id. Served for every enabled organization (the first key is made here on
 * first use); a disabled or unknown one gets the same page, so the address does not tell which exist.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { findOrganization } from '../../../../modules/organizations/index.ts';
import { currentKey, idpMetadataXml, publishedKeys } from '../../../../modules/saml-idp/index.ts';
import { unavailablePage } from '../org-sso/start-route.ts';

export function idpMetadataRoute(deps: Deps) {
  return async (request: FastifyRequest<{ Params: { org: string } }>, reply: FastifyReply) => {
    const em = deps.storage.fork();
    const org = request.params.org.length <= 63 ? await findOrganization(em, { name: request.params.org }) : null;
    if (!org?.enabled) return unavailablePage(reply);
    let keys = await publishedKeys(em, org.id);
    // Only an organization without a signing key yet needs the first one made (and the list read again).
    if (!keys.some((key) => key.state === 'current')) {
      await currentKey(em, deps, org.id, org.name);
      keys = await publishedKeys(em, org.id);
    }
    return reply
      .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
      // Short: after a rotation or retirement SPs that refresh metadata see the change within a minute.
      .header('cache-control', 'public, max-age=60')
      .send(idpMetadataXml(deps.config, org.name, keys));
  };
}
