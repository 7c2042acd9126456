/**
 * POST /sso/saml/<organization>/acs: the AssertionConsumerService where the organization's SAML IdP
 * returns the browser (HTTP-POST binding, SAML 2.0 Bindings 3.5). Only SP-initiated sign-ins are taken:
 * the RelayState must name a flow this browser started, unused and unexpired, for this very organization
 * (saml-login-state.ts); an unsolicited (IdP-initiated) response has none and is refused, as it would be
 * open to login CSRF. The connection and the organization are read again: one deleted, disabled or
 * repointed to another IdP since the start refuses the flow (docs/operations.md: deleting stops SSO logins
 * at once). The response is then validated strictly (saml-response.ts), its assertion used once
 * (saml-replay.ts), and the sign-in finished by the same rule as OIDC (finish-sign-in.ts). Every refusal is
 * a fixed page: nothing of the XML is shown or echoed, and the log names only the rule.
 */
import { defineEndpoint, type EndpointAnswer } from '../../ops/endpoint.ts';
import { findOrganization } from '../organizations/index.ts';
import { flowNotUsable, signInParameter } from '../accounts/index.ts';
import { signInPage, signInRefusalPage, spendSignInAllowance } from '../../ops/sign-in-pages.ts';
import { findSamlConnection } from './saml-connections.service.ts';
import { SAML_BINDING_COOKIE, takeSamlFlow } from './saml-login-state.ts';
import { MAX_SAML_RESPONSE_CHARS, SamlResponseError, validateSamlResponse } from './saml-response.ts';
import { samlIdentity } from './saml-identity.ts';
import { recordAssertionUse } from './saml-replay.ts';
import { samlAcsUrl, samlEntityId } from './sso-urls.ts';
import type { SsoIdentity } from './sign-in.ts';
import { finishSsoSignIn } from './finish-sign-in.ts';
import { changedWhileSigningIn } from './sso-request.ts';

/** Validation costs signature checks and writes: extra points of the per-IP bucket. */
const ACS_EXTRA_POINTS = 4;

const cannotComplete = (paragraph: string): EndpointAnswer => signInPage(400, 'This sign-in cannot be completed', [paragraph]);

export const samlAcsEndpoint = defineEndpoint({
  name: 'org_saml_acs',
  methods: ['POST'],
  path: '/sso/saml/:org/acs',
  csrf: { exempt: 'the IdP\'s page posts the response by design (SAML Bindings 3.5); its proof is the signed assertion answering a request this browser made, not the Origin' },
  body: 'form',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const refused = await spendSignInAllowance(ctx.deps, request.ip, ACS_EXTRA_POINTS);
    if (refused) return refused;
    const { deps, em } = ctx;
    const samlResponse = signInParameter(request.body, 'SAMLResponse');
    if (!samlResponse) return cannotComplete('The sign-in service sent no answer. Start again from the application.');
    if (samlResponse.length > MAX_SAML_RESPONSE_CHARS) return signInPage(413, 'This sign-in cannot be completed', ['The sign-in service sent an answer that is too large.']);
    const relayState = signInParameter(request.body, 'RelayState');
    if (!relayState) {
      return cannotComplete('Sign-in must start from the application: this server does not accept sign-ins that the sign-in service starts on its own.');
    }
    const taken = await takeSamlFlow(deps, relayState, request.cookies[SAML_BINDING_COOKIE]);
    if (!taken.ok) return flowNotUsable(taken.reason);
    const { flow } = taken;
    const org = await findOrganization(em, { id: flow.orgId });
    // The answer must arrive at the ACS of the organization the flow is for: its entity id is the audience.
    if (!org || org.name !== request.params.org) return cannotComplete('This answer was sent to another organization\'s address. Start again from the application.');
    const connection = await findSamlConnection(em, { id: flow.connectionId });
    if (!connection?.enabled || connection.orgId !== flow.orgId || connection.idpEntityId !== flow.idpEntityId || !org.enabled) return changedWhileSigningIn();
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
      ctx.log.warn({ orgId: org.id, reason: err.message }, 'organization SAML sign-in: response refused');
      return signInPage(400, 'Sign-in failed', [`${org.displayName}'s sign-in service sent an answer this server cannot accept. Start again from the application.`]);
    }
    return finishSsoSignIn(ctx, { org, connection, identity, redirectUri: flow.redirectUri, appState: flow.appState, scope: flow.scope });
  },
});
