/**
 * Organization single sign-on (specification part 2 "Upstream org connections", part 4.2 "Org SSO
 * connections"): each organization's OpenID Connect IdP, home-realm discovery from an email's verified
 * domain, and the sign-in through the IdP with its account rule (sign-in.ts). The browser routes live in
 * transports/http/protocol/org-sso (modules see no Fastify types: manifest.ts). SAML connections are not
 * here yet.
 */
import { defineModule } from '../manifest.ts';
import { OrgOidcConnection, OrgSsoIdentity, OrgSsoLoginState } from './org-sso.entities.ts';
import { connectionOperations } from './connections.ops.ts';
import { orgDiscoveryOp } from './discovery.ops.ts';

export { OrgOidcConnection, OrgSsoIdentity, OrgSsoLoginState, type OrgOidcConnectionRow } from './org-sso.entities.ts';
export { findConnection } from './connections.service.ts';
export { orgDiscoveryEnabled } from './discovery-flag.ts';
export { IdpClient, type IdpSettings } from './idp-client.ts';
export { idpSettingsOf } from './idp-settings.ts';
export { IdpError } from './guarded-http.ts';
export { SSO_BINDING_COOKIE, startSsoFlow, takeSsoFlow, type SsoFlow } from './login-state.ts';
export { completeSsoSignIn } from './sign-in.ts';
export { ssoCallbackUrl, ssoStartUrl } from './sso-urls.ts';

export const orgSsoModule = defineModule({
  name: 'org-sso',
  entities: [OrgOidcConnection, OrgSsoIdentity, OrgSsoLoginState],
  operations: [...connectionOperations, orgDiscoveryOp],
});
