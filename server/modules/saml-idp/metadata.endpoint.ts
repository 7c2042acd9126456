/**
 * GET /saml/<organization>/metadata: the organization's SAML IdP metadata (idp-metadata.ts), its address
 * being the IdP's entity id. Served for every enabled organization (the first key is made here on first use);
 * a disabled or unknown one gets the same page, so the address does not tell which exist.
 */
import { defineEndpoint } from '../../ops/endpoint.ts';
import { organizationSignInUnavailable, signInRefusalPage } from '../../ops/sign-in-pages.ts';
import { enabledOrganization } from './browser-request.ts';
import { currentKey, publishedKeys } from './idp-keys.service.ts';
import { idpMetadataXml } from './idp-metadata.ts';

export const idpMetadataEndpoint = defineEndpoint({
  name: 'saml_idp_metadata',
  methods: ['GET'],
  path: '/saml/:org/metadata',
  csrf: 'origin',
  body: 'none',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const { deps, em } = ctx;
    const org = await enabledOrganization(em, request.params.org!);
    if (!org) return organizationSignInUnavailable();
    let keys = await publishedKeys(em, org.id);
    // Only an organization without a signing key yet needs the first one made (and the list read again).
    if (!keys.some((key) => key.state === 'current')) {
      await currentKey(em, deps, org.id, org.name);
      keys = await publishedKeys(em, org.id);
    }
    return {
      kind: 'text',
      contentType: 'application/samlmetadata+xml; charset=utf-8',
      body: idpMetadataXml(deps.config, org.name, keys),
      // Short: after a rotation or retirement SPs that refresh metadata see the change within a minute.
      headers: { 'cache-control': 'public, max-age=60' },
    };
  },
});
