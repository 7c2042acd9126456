/**
 * The SAML branch of GET /sso/<organization>/start (start-route.ts has checked the organization and what
 * the application asks for): a flow kept server-side under a random RelayState handle, bound to this
 * browser, holding the ID of the AuthnRequest (org-sso/saml-login-state.ts), and the browser sent to the
 * IdP's SSO service with that request (HTTP-Redirect binding, org-sso/saml-sp.ts). The RelayState is only
 * a handle: the application's target and state never leave this server.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { ResponseEffects, parseCookieHeader } from '../../../../kernel/effects.ts';
import type { OrganizationRow } from '../../../../modules/organizations/index.ts';
import { SAML_BINDING_COOKIE, authnRequestUrl, startSamlFlow, type OrgSamlConnectionRow } from '../../../../modules/org-sso/index.ts';
import { applyEffects } from '../../request-context.ts';

export interface ApplicationRequest {
  redirectUri: string;
  appState: string;
  scope: string[];
}

export async function startSamlSignIn(deps: Deps, request: FastifyRequest, reply: FastifyReply, org: OrganizationRow, connection: OrgSamlConnectionRow, app: ApplicationRequest): Promise<FastifyReply> {
  const started = await startSamlFlow(deps, parseCookieHeader(request.headers.cookie)[SAML_BINDING_COOKIE], {
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
  const effects = new ResponseEffects();
  effects.setCookie(started.bindingCookie);
  applyEffects(reply, effects);
  return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').redirect(location, 302);
}
