/**
 * GET /saml/<organization>/slo: the IdP's SingleLogoutService for an SP-initiated single logout by the
 * HTTP-Redirect binding (SAML 2.0 Profiles 4.4.3; saml-idp/logout-request.ts checks the signed
 * LogoutRequest). When the browser's session here belongs to the user the request names (the NameID this
 * IdP gives that user at that SP), the session ends as /logout ends it (the session row and its tokens
 * revoked, both cookies cleared: modules/tokens endSession); a request naming someone else ends nothing.
 * The signed LogoutResponse is posted to the SP's registered SingleLogoutService. Other SPs are not asked
 * to log out (no front-channel propagation): the sign-out is of this server's session and that SP's.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { findOrganization } from '../../../../modules/organizations/index.ts';
import { endSession } from '../../../../modules/tokens/index.ts';
import {
  MAX_SAML_REQUEST_CHARS, SamlRequestError, SubjectUnavailableError, assertionSubject, currentKey, idpEntityId, idpSloUrl, recordRequestUse,
  signedLogoutResponseXml, validateLogoutRequest,
} from '../../../../modules/saml-idp/index.ts';
import { applyEffects, buildHttpContext } from '../../request-context.ts';
import { browserSession } from '../authorize/browser-session.ts';
import { sendFormPost } from '../authorize/response-pages.ts';
import { sendSocialPage } from '../social/social-pages.ts';
import { spendOrRefuse, unavailablePage } from '../org-sso/start-route.ts';

const SLO_EXTRA_POINTS = 2;
const MAX_RELAY_STATE = 1024;

const cannotSignOut = (reply: FastifyReply, status = 400) =>
  sendSocialPage(reply, status, 'This sign-out cannot be completed', ['The application sent a sign-out request this server cannot accept. Sign out from the application again.']);

export function sloRoute(deps: Deps) {
  const { config } = deps;
  return async (request: FastifyRequest<{ Params: { org: string } }>, reply: FastifyReply) => {
    const refused = await spendOrRefuse(deps, request, reply, SLO_EXTRA_POINTS);
    if (refused) return refused;
    const em = deps.storage.fork();
    const org = request.params.org.length <= 63 ? await findOrganization(em, { name: request.params.org }) : null;
    if (!org?.enabled) return unavailablePage(reply);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const samlRequest = typeof query.SAMLRequest === 'string' ? query.SAMLRequest : '';
    const relayState = typeof query.RelayState === 'string' && query.RelayState !== '' ? query.RelayState : undefined;
    if (!samlRequest || samlRequest.length > MAX_SAML_REQUEST_CHARS || (relayState?.length ?? 0) > MAX_RELAY_STATE) return cannotSignOut(reply);
    const rawUrl = request.raw.url ?? '';
    let logout;
    try {
      logout = await validateLogoutRequest({ samlRequest, rawQuery: rawUrl.slice(rawUrl.indexOf('?') + 1) }, { em, orgId: org.id, sloUrl: idpSloUrl(config, org.name), now: deps.clock.now() });
      if (!(await recordRequestUse(deps, org.id, logout.serviceProvider.id, logout.requestId, logout.issueInstant))) throw new SamlRequestError('LogoutRequest ID already used');
    } catch (err) {
      if (!(err instanceof SamlRequestError)) throw err;
      request.log.warn({ orgId: org.id, reason: err.message }, 'SAML IdP: LogoutRequest refused');
      return cannotSignOut(reply);
    }
    const ctx = buildHttpContext(deps, request, 'rest');
    const found = await browserSession(ctx);
    let success = true;
    if (found) {
      let ours: string | undefined;
      try {
        ours = assertionSubject(config, logout.serviceProvider, found.user, []).nameId;
      } catch (err) {
        if (!(err instanceof SubjectUnavailableError)) throw err;
      }
      if (ours === logout.nameId) {
        await deps.storage.fork().transactional((tx) => endSession(ctx, tx, found.session.id));
        applyEffects(reply, ctx.effects);
      } else {
        success = false;
      }
    }
    const key = await currentKey(em, deps, org.id, org.name);
    const xml = await signedLogoutResponseXml({
      idpEntityId: idpEntityId(config, org.name),
      sloUrl: logout.serviceProvider.sloUrl,
      inResponseTo: logout.requestId,
      success,
      now: deps.clock.now(),
      signingKey: { privateKeyPem: deps.sealer.open(key.privateKeySealed), certificatePem: key.certificatePem },
    });
    return sendFormPost(reply, logout.serviceProvider.sloUrl, { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), ...(relayState ? { RelayState: relayState } : {}) });
  };
}
