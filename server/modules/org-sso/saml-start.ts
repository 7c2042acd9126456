/**
 * The SAML branch of GET /sso/<organization>/start (start.endpoint.ts has checked the organization and what
 * the application asks for): a flow kept server-side under a random RelayState handle, bound to this
 * browser, holding the ID of the AuthnRequest (saml-login-state.ts), and the browser sent to the IdP's SSO
 * service with that request (HTTP-Redirect binding, saml-sp.ts). The RelayState is only a handle: the
 * application's target and state never leave this server.
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { EndpointAnswer } from '../../ops/endpoint.ts';
import type { OrganizationRow } from '../organizations/index.ts';
import { signInRedirect } from '../accounts/index.ts';
import { SAML_BINDING_COOKIE, startSamlFlow } from './saml-login-state.ts';
import { authnRequestUrl } from './saml-sp.ts';
import type { OrgSamlConnectionRow } from './saml-connection.entities.ts';

export interface ApplicationRequest {
  redirectUri: string;
  appState: string;
  scope: string[];
}

export async function startSamlSignIn(
  ctx: HandlerContext, cookies: Readonly<Record<string, string>>, org: OrganizationRow, connection: OrgSamlConnectionRow, app: ApplicationRequest,
): Promise<EndpointAnswer> {
  const { deps } = ctx;
  const started = await startSamlFlow(deps, cookies[SAML_BINDING_COOKIE], {
    orgId: org.id,
    connectionId: connection.id,
    idpEntityId: connection.idpEntityId,
    redirectUri: app.redirectUri,
    appState: app.appState,
    scope: app.scope,
  });
  const location = authnRequestUrl(deps.config, {
    orgName: org.name,
    idpSsoUrl: connection.idpSsoUrl,
    requestId: started.requestId,
    relayState: started.relayState,
    issueInstant: deps.clock.now(),
  });
  ctx.effects.setCookie(started.bindingCookie);
  return signInRedirect(location);
}
