/**
 * /saml/<organization>/slo: the IdP's SingleLogoutService for an SP-initiated single logout (SAML 2.0
 * Profiles 4.4.3): GET with SAMLRequest by the HTTP-Redirect binding (Bindings 3.4), POST with SAMLRequest
 * by the HTTP-POST binding (Bindings 3.5); logout-request.ts checks the signed LogoutRequest. When the
 * browser's session here belongs to the user the request names (the NameID this IdP gives that user at that
 * SP), the session ends as /logout ends it (the session row and its tokens revoked, both cookies cleared:
 * modules/tokens endSession); a request naming someone else ends nothing. The signed LogoutResponse goes to
 * the SP's registered SingleLogoutService by the binding registered with it, whichever binding the request
 * came by (logout-response.ts): a redirect with a signed query, or an auto-posting form. Other SPs are not
 * asked to log out (no front-channel propagation): the sign-out is of this server's session and that SP's.
 *
 * POST is exempt from the Origin rule (docs/api-overview.md#authentication): the SP's page posts it
 * cross-site by design, and only a request signed with the SP's registered key is acted on.
 */
import { defineEndpoint, noStoreRedirect, type EndpointAnswer } from '../../ops/endpoint.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { organizationSignInUnavailable, signInPage, signInRefusalPage, spendSignInAllowance } from '../../ops/sign-in-pages.ts';
import { endSession } from '../tokens/index.ts';
import { SubjectUnavailableError, assertionSubject } from './assertion-subject.ts';
import { MAX_SAML_REQUEST_CHARS, SamlRequestError } from './authn-request.ts';
import { MAX_RELAY_STATE, enabledOrganization, formText, receivedBy } from './browser-request.ts';
import { browserSession } from '../sessions/index.ts';
import { currentKey } from './idp-keys.service.ts';
import { idpEntityId, idpSloUrl } from './idp-urls.ts';
import { validateLogoutRequest, type ValidatedLogoutRequest } from './logout-request.ts';
import { logoutAnswer } from './logout-response.ts';
import { recordRequestUse } from './request-replay.ts';
import { sloBindingOf } from './sp-fields.ts';

/** Validation costs a signature check and writes: extra points of the per-IP bucket. */
const SLO_EXTRA_POINTS = 2;

const cannotSignOut = (): EndpointAnswer =>
  signInPage(400, 'This sign-out cannot be completed', ['The application sent a sign-out request this server cannot accept. Sign out from the application again.']);

/**
 * Ends the browser's session when it is that of the user the request names; whether the logout succeeded
 * (a session of someone else is not ended, so the answer is not Success). No session here is
 * a success: there is nothing left to end.
 */
async function endNamedSession(ctx: HandlerContext, logout: ValidatedLogoutRequest): Promise<boolean> {
  const found = await browserSession(ctx);
  if (!found) return true;
  let ours: string | undefined;
  try {
    ours = assertionSubject(ctx.deps.config, logout.serviceProvider, found.user, []).nameId;
  } catch (err) {
    if (!(err instanceof SubjectUnavailableError)) throw err;
  }
  if (ours !== logout.nameId) return false;
  await ctx.deps.storage.fork().transactional((tx) => endSession(ctx, tx, found.session.id));
  return true;
}

export const sloEndpoint = defineEndpoint({
  name: 'saml_idp_slo',
  methods: ['GET', 'POST'],
  path: '/saml/:org/slo',
  csrf: { exempt: "an SP posts its LogoutRequest cross-site by design (SAML Bindings 3.5); only one signed with that SP's registered key is acted on" },
  body: 'form',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const { deps } = ctx;
    const refused = await spendSignInAllowance(deps, request.ip, SLO_EXTRA_POINTS);
    if (refused) return refused;
    const org = await enabledOrganization(ctx.em, request.params.org!);
    if (!org) return organizationSignInUnavailable();
    // Body kind 'form': the POST body or the GET query, as parsed.
    const samlRequest = formText(request.body, 'SAMLRequest');
    const relayState = formText(request.body, 'RelayState');
    if (!samlRequest || samlRequest.length > MAX_SAML_REQUEST_CHARS || (relayState?.length ?? 0) > MAX_RELAY_STATE) return cannotSignOut();
    const received = receivedBy(request, samlRequest);
    let logout;
    try {
      logout = await validateLogoutRequest(received, { em: ctx.em, orgId: org.id, sloUrl: idpSloUrl(deps.config, org.name), now: deps.clock.now() });
      if (!(await recordRequestUse(deps, org.id, logout.serviceProvider.id, logout.requestId, logout.issueInstant))) throw new SamlRequestError('LogoutRequest ID already used');
    } catch (err) {
      if (!(err instanceof SamlRequestError)) throw err;
      ctx.log.warn({ orgId: org.id, binding: received.binding, reason: err.message }, 'SAML IdP: LogoutRequest refused');
      return cannotSignOut();
    }
    const success = await endNamedSession(ctx, logout);
    const key = await currentKey(ctx.em, deps, org.id, org.name);
    const answer = await logoutAnswer(sloBindingOf(logout.serviceProvider)!, {
      idpEntityId: idpEntityId(deps.config, org.name),
      sloUrl: logout.serviceProvider.sloUrl,
      inResponseTo: logout.requestId,
      success,
      ...(relayState !== undefined ? { relayState } : {}),
      now: deps.clock.now(),
      signingKey: { privateKeyPem: deps.sealer.open(key.privateKeySealed), certificatePem: key.certificatePem },
    });
    if (answer.binding === 'redirect') return noStoreRedirect(answer.location);
    return { kind: 'form-post', action: answer.action, fields: answer.fields };
  },
});
