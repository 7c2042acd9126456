/**
 * POST /sso/saml/<organization>/acs: the AssertionConsumerService where the organization's SAML IdP
 * returns the browser (HTTP-POST binding, SAML 2.0 Bindings 3.5). Only SP-initiated sign-ins are taken:
 * the RelayState must name a flow this browser started, unused and unexpired, for this very organization
 * (org-sso/saml-login-state.ts); an unsolicited (IdP-initiated) response has none and is refused, as it
 * would be open to login CSRF. The connection and the organization are read again: one deleted, disabled or
 * repointed to another IdP since the start refuses the flow (docs/operations.md: deleting stops SSO
 * logins at once). The response is then validated strictly (org-sso/saml-response.ts), its assertion used
 * once (org-sso/saml-replay.ts), and the sign-in finished by the same rule as OIDC (complete-sign-in.ts).
 * Every refusal is a fixed page: nothing of the XML is shown or echoed, and the log names only the rule.
 *
 * Exempt from the Origin rule of docs/api-overview.md#authentication (security.ts): the post comes from the IdP's page by
 * design, and its proof is the signed assertion bound to a request this browser made, not the Origin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { parseCookieHeader } from '../../../../kernel/effects.ts';
import { findOrganization } from '../../../../modules/organizations/index.ts';
import {
  MAX_SAML_RESPONSE_CHARS, SAML_BINDING_COOKIE, SamlResponseError, findSamlConnection, recordAssertionUse, samlAcsUrl, samlEntityId,
  samlIdentity, takeSamlFlow, validateSamlResponse, type SsoIdentity,
} from '../../../../modules/org-sso/index.ts';
import { sendSocialPage } from '../social/social-pages.ts';
import { spendOrRefuse } from './start-route.ts';
import { finishSsoSignIn } from './complete-sign-in.ts';

/** Validation costs signature checks and writes: extra points of the per-IP bucket. */
const ACS_EXTRA_POINTS = 4;

const cannotComplete = (reply: FastifyReply, paragraph: string) => sendSocialPage(reply, 400, 'This sign-in cannot be completed', [paragraph]);

function field(body: unknown, name: string): string | undefined {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function samlAcsRoute(deps: Deps) {
  return async (request: FastifyRequest<{ Params: { org: string } }>, reply: FastifyReply) => {
    const refused = await spendOrRefuse(deps, request, reply, ACS_EXTRA_POINTS);
    if (refused) return refused;
    const samlResponse = field(request.body, 'SAMLResponse');
    if (!samlResponse) return cannotComplete(reply, 'The sign-in service sent no answer. Start again from the application.');
    if (samlResponse.length > MAX_SAML_RESPONSE_CHARS) return sendSocialPage(reply, 413, 'This sign-in cannot be completed', ['The sign-in service sent an answer that is too large.']);
    const relayState = field(request.body, 'RelayState');
    if (!relayState) {
      return cannotComplete(reply, 'Sign-in must start from the application: this server does not accept sign-ins that the sign-in service starts on its own.');
    }
    const taken = await takeSamlFlow(deps, relayState, parseCookieHeader(request.headers.cookie)[SAML_BINDING_COOKIE]);
    if (!taken.ok) {
      return cannotComplete(reply, taken.reason === 'wrong_browser'
        ? 'This sign-in was started in another browser. Start again from the application in this browser.'
        : 'This sign-in is unknown, was already used or has expired. Start again from the application.');
    }
    const { flow } = taken;
    const em = deps.storage.fork();
    const org = await findOrganization(em, { id: flow.orgId });
    // The answer must arrive at the ACS of the organization the flow is for: its entity id is the audience.
    if (!org || org.name !== request.params.org) return cannotComplete(reply, 'This answer was sent to another organization\'s address. Start again from the application.');
    const connection = await findSamlConnection(em, { id: flow.connectionId });
    if (!connection?.enabled || connection.orgId !== flow.orgId || connection.idpEntityId !== flow.idpEntityId || !org.enabled) {
      return sendSocialPage(reply, 403, 'Organization sign-in unavailable', ['This organization\'s single sign-on was turned off or changed while you were signing in. Start again from the application.']);
    }
    let identity: SsoIdentity;
    try {
      const assertion = await validateSamlResponse(samlResponse, {
        certificates: connection.idpCertificates,
        idpEntityId: connection.idpEntityId,
        spEntityId: samlEntityId(deps.config, org.name),
        acsUrl: samlAcsUrl(deps.config, org.name),
        requestId: flow.requestId,
        requestedAt: flow.createdAt,
        clock: deps.clock,
      });
      identity = samlIdentity(connection, assertion);
      if (!(await recordAssertionUse(deps, org.id, connection.id, assertion.assertionId, assertion.usableUntil))) throw new SamlResponseError('assertion already used');
    } catch (err) {
      if (!(err instanceof SamlResponseError)) throw err;
      request.log.warn({ orgId: org.id, reason: err.message }, 'organization SAML sign-in: response refused');
      return sendSocialPage(reply, 400, 'Sign-in failed', [`${org.displayName}'s sign-in service sent an answer this server cannot accept. Start again from the application.`]);
    }
    return finishSsoSignIn(deps, request, reply, { org, connection, identity, redirectUri: flow.redirectUri, appState: flow.appState, scope: flow.scope });
  };
}
