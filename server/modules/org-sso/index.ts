/**
 * Organization single sign-on (docs/api-overview.md#resources-and-fields, "Upstream org connections",
 * docs/operations.md, "Org SSO connections"): each organization's OpenID Connect IdP, home-realm discovery from an email's verified
 * domain, and the sign-in through the IdP with its account rule (sign-in.ts). Its browser endpoints: GET
 * /sso/<organization>/start, GET /sso/oidc/callback, and the SAML service provider's GET
 * /sso/saml/<organization>/metadata and POST /sso/saml/<organization>/acs, whose refusals are pages
 * (ops/sign-in-pages.ts). An organization's IdP is OpenID Connect or SAML 2.0 (saml-*.ts: this server
 * as the service provider), or both: the start goes to OIDC while that connection is enabled, else to SAML
 * (saml-start.ts).
 */
import { defineModule } from '../manifest.ts';
import { ssoStartEndpoint } from './start.endpoint.ts';
import { ssoCallbackEndpoint } from './callback.endpoint.ts';
import { samlMetadataEndpoint } from './saml-metadata.endpoint.ts';
import { samlAcsEndpoint } from './saml-acs.endpoint.ts';
import { idpClientService } from './idp.service.ts';
import { subscription } from '../../kernel/hooks.ts';
import { onAccountErased, onAccountTakeover, onPersonalDataExport } from '../accounts/index.ts';
import { eraseOrgSsoIdentities, exportOrgSsoIdentities } from './personal-data.ts';
import { OrgOidcConnection, OrgSsoIdentity, OrgSsoLoginState } from './org-sso.entities.ts';
import { connectionOperations } from './connections.ops.ts';
import { orgDiscoveryOp } from './discovery.ops.ts';
import { OrgSamlAssertionUse, OrgSamlConnection, OrgSamlLoginState } from './saml-connection.entities.ts';
import { samlConnectionOperations } from './saml-connections.ops.ts';

export { OrgOidcConnection, OrgSsoIdentity, OrgSsoLoginState, type OrgOidcConnectionRow } from './org-sso.entities.ts';
export { findConnection } from './connections.service.ts';
export { orgDiscoveryEnabled } from './discovery-flag.ts';
export { IdpClient, type IdpSettings } from './idp-client.ts';
export { idpSettingsOf } from './idp-settings.ts';
export { IdpError } from './guarded-http.ts';
export { SSO_BINDING_COOKIE, startSsoFlow, takeSsoFlow, type SsoFlow } from './login-state.ts';
export { completeSsoSignIn, type SsoConnection, type SsoIdentity } from './sign-in.ts';
export { samlAcsUrl, samlEntityId, ssoCallbackUrl, ssoStartUrl } from './sso-urls.ts';
export { OrgSamlConnection, type OrgSamlConnectionRow } from './saml-connection.entities.ts';
export { findSamlConnection } from './saml-connections.service.ts';
export { SAML_BINDING_COOKIE, startSamlFlow, takeSamlFlow, type SamlFlow } from './saml-login-state.ts';
export { authnRequestUrl, spMetadataXml } from './saml-sp.ts';
export { MAX_SAML_RESPONSE_CHARS, SamlResponseError, validateSamlResponse } from './saml-response.ts';
export { samlIdentity } from './saml-identity.ts';
export { recordAssertionUse } from './saml-replay.ts';

export const orgSsoModule = defineModule({
  name: 'org-sso',
  entities: [OrgOidcConnection, OrgSsoIdentity, OrgSsoLoginState, OrgSamlConnection, OrgSamlLoginState, OrgSamlAssertionUse],
  operations: [...connectionOperations, ...samlConnectionOperations, orgDiscoveryOp],
  endpoints: [ssoCallbackEndpoint, ssoStartEndpoint, samlMetadataEndpoint, samlAcsEndpoint],
  // One per app: the discovery and key caches of the organizations' IdPs.
  services: [idpClientService],
  // A taken-over account keeps no organization sign-in linked by its previous holder.
  // The holder's copy and the erasure of their data (docs/privacy.md).
  hooks: [
    subscription(onAccountTakeover, (em, userId) => em.nativeDelete(OrgSsoIdentity, { userId })),
    subscription(onPersonalDataExport, exportOrgSsoIdentities),
    subscription(onAccountErased, eraseOrgSsoIdentities),
  ],
});
