/**
 * /saml/<organization>/slo: the IdP's SingleLogoutService for an SP-initiated single logout (SAML 2.0
 * Profiles 4.4.3): GET with SAMLRequest by the HTTP-Redirect binding (Bindings 3.4), POST with SAMLRequest
 * by the HTTP-POST binding (Bindings 3.5); saml-idp/logout-request.ts checks the signed LogoutRequest. When
 * the browser's session here belongs to the user the request names (the NameID this IdP gives that user at
 * that SP), the session ends as /logout ends it (the session row and its tokens revoked, both cookies
 * cleared: modules/tokens endSession); a request naming someone else ends nothing. The signed
 * LogoutResponse goes to the SP's registered SingleLogoutService by the binding registered with it,
 * whichever binding the request came by (saml-idp/logout-response.ts): a redirect with a signed query, or
 * an auto-posting form. Other SPs are not asked to log out (no front-channel propagation): the sign-out is
 * of this server's session and that SP's.
 *
 * POST is exempt from the Origin rule (security.ts): the SP's page posts it cross-site by design, and only a
 * request signed with the SP's registered key is acted on.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { findOrganization } from '../../../../modules/organizations/index.ts';
import { endSession } from '../../../../modules/tokens/index.ts';
import {
  MAX_SAML_REQUEST_CHARS, SamlRequestError, SubjectUnavailableError, assertionSubject, currentKey, idpEntityId, idpSloUrl, logoutAnswer, recordRequestUse,
  sloBindingOf, validateLogoutRequest, type ReceivedRequest,
} from '../../../../modules/saml-idp/index.ts';
import { applyEffects, buildHttpContext } from '../../request-context.ts';
import { browserSession } from '../authorize/browser-session.ts';
import { noStoreRedirect } from '../authorize/authorization-answer.ts';
import { sendFormPost } from '../authorize/response-pages.ts';
import { sendSocialPage } from '../social/social-pages.ts';
import { spendOrRefuse, unavailablePage } from '../org-sso/start-route.ts';

const SLO_EXTRA_POINTS = 2;
const MAX_RELAY_STATE = 1024;

const cannotSignOut = (reply: FastifyReply, status = 400) =>
  sendSocialPage(reply, status, 'This sign-out cannot be completed', ['The application sent a sign-out request this server cannot accept. Sign out from the application again.']);

function text(source: unknown, name: string): string | undefined {
  const value = source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The LogoutRequest as received, by the binding of the request's method. */
function receivedRequest(request: FastifyRequest): { received: ReceivedRequest; relayState?: string } | undefined {
  const post = request.method === 'POST';
  const source = post ? request.body : request.query;
  const samlRequest = text(source, 'SAMLRequest');
  const relayState = text(source, 'RelayState');
  if (!samlRequest || samlRequest.length > MAX_SAML_REQUEST_CHARS || (relayState?.length ?? 0) > MAX_RELAY_STATE) return undefined;
  const rawUrl = request.raw.url ?? '';
  const received: ReceivedRequest = post ? { binding: 'post', samlRequest } : { binding: 'redirect', samlRequest, rawQuery: rawUrl.slice(rawUrl.indexOf('?') + 1) };
  return { received, ...(relayState !== undefined ? { relayState } : {}) };
}

export function sloRoute(deps: Deps) {
  const { config } = deps;
  return async (request: FastifyRequest<{ Params: { org: string } }>, reply: FastifyReply) => {
    const refused = await spendOrRefuse(deps, request, reply, SLO_EXTRA_POINTS);
    if (refused) return refused;
    const em = deps.storage.fork();
    const org = request.params.org.length <= 63 ? await findOrganization(em, { name: request.params.org }) : null;
    if (!org?.enabled) return unavailablePage(reply);
    const read = receivedRequest(request);
    if (!read) return cannotSignOut(reply);
    let logout;
    try {
      logout = await validateLogoutRequest(read.received, { em, orgId: org.id, sloUrl: idpSloUrl(config, org.name), now: deps.clock.now() });
      if (!(await recordRequestUse(deps, org.id, logout.serviceProvider.id, logout.requestId, logout.issueInstant))) throw new SamlRequestError('LogoutRequest ID already used');
    } catch (err) {
      if (!(err instanceof SamlRequestError)) throw err;
      request.log.warn({ orgId: org.id, binding: read.received.binding, reason: err.message }, 'SAML IdP: LogoutRequest refused');
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
    const answer = await logoutAnswer(sloBindingOf(logout.serviceProvider)!, {
      idpEntityId: idpEntityId(config, org.name),
      sloUrl: logout.serviceProvider.sloUrl,
      inResponseTo: logout.requestId,
      success,
      ...(read.relayState !== undefined ? { relayState: read.relayState } : {}),
      now: deps.clock.now(),
      signingKey: { privateKeyPem: deps.sealer.open(key.privateKeySealed), certificatePem: key.certificatePem },
    });
    if (answer.binding === 'redirect') return noStoreRedirect(reply, answer.location);
    return sendFormPost(reply, answer.action, answer.fields);
  };
}
