/**
 * /saml/<organization>/sso, the IdP's SingleSignOnService (SAML 2.0 Profiles 4.1 Web Browser SSO):
 *
 * - GET with SAMLRequest: an AuthnRequest by the HTTP-Redirect binding (Bindings 3.4); POST with
 *   SAMLRequest: by the HTTP-POST binding (Bindings 3.5). Validated by saml-idp/authn-request.ts, then its
 *   ID recorded so it is answered once (request-replay.ts);
 * - GET with sp=<entity id>: IdP-initiated sign-in to that active service provider (Profiles 4.1.5), its
 *   default ACS, no InResponseTo; an optional RelayState is passed through;
 * - GET with resume=<handle>: back from the login UI (pending-logins.ts).
 *
 * Then: a browser without a live session goes through the login UI and comes back to resume (as /authorize
 * does: oauth/resume-url.ts); so does one whose sign-in predates a ForceAuthn request (its session cookies
 * cleared, so the login UI asks again, Core 3.4.1); an IsPassive request that would need the login UI is
 * answered NoPassive instead (Core 3.2.2.2); a signed-in user who is not a member of the organization is refused (the SPs
 * are the organization's); a member gets an auto-posting form (no inline script but one with a nonce, as
 * the form_post response mode) carrying the signed Response to the ACS. Refusals are fixed pages that echo
 * nothing of the request; the log names the rule only.
 *
 * POST is exempt from the Origin rule of docs/api-overview.md#authentication (security.ts): the SP's page posts it
 * cross-site by design, and it only starts a sign-in whose answer goes to a registered ACS.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { sha256Hex } from '../../../../kernel/crypto.ts';
import { clearedSessionCookies } from '../../../../kernel/cookies.ts';
import { findOrganization, OrgMember, type OrganizationRow } from '../../../../modules/organizations/index.ts';
import { authTimeOf } from '../../../../modules/sessions/index.ts';
import { issuerOf } from '../../../../modules/tokens/index.ts';
import {
  MAX_SAML_REQUEST_CHARS, SamlRequestError, SamlServiceProvider, SubjectUnavailableError, assertionSubject, currentKey, findActiveServiceProvider,
  idpEntityId, idpSsoUrl, openPendingLogin, recordRequestUse, signedNoPassiveResponseXml, signedResponseXml, takePendingLogin, validateAuthnRequest,
  type SamlServiceProviderRow,
} from '../../../../modules/saml-idp/index.ts';
import { applyEffects, buildHttpContext } from '../../request-context.ts';
import { browserSession } from '../authorize/browser-session.ts';
import { noStoreRedirect } from '../authorize/authorization-answer.ts';
import { sendFormPost } from '../authorize/response-pages.ts';
import { sendSocialPage } from '../social/social-pages.ts';
import { spendOrRefuse, unavailablePage } from '../org-sso/start-route.ts';

/** Validation costs a signature check and writes: extra points of the per-IP bucket. */
const SSO_EXTRA_POINTS = 2;
/** Bindings 3.4.3 asks SPs for at most 80 bytes; some send more, so the bound is looser but still a bound. */
const MAX_RELAY_STATE = 1024;

interface SignIn {
  serviceProvider: SamlServiceProviderRow;
  requestId: string | null;
  acsUrl: string;
  relayState: string | null;
  /** ForceAuthn: the sign-in must be at or after this moment. */
  authAfter: Date | null;
  isPassive: boolean;
}

const cannotSignIn = (reply: FastifyReply, paragraph: string, status = 400) => sendSocialPage(reply, status, 'This sign-in cannot be completed', [paragraph]);

function text(source: unknown, name: string): string | undefined {
  const value = source && typeof source === 'object' ? (source as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The sign-in this request asks for, or a page already sent. */
async function readSignIn(deps: Deps, request: FastifyRequest, reply: FastifyReply, org: OrganizationRow): Promise<SignIn | FastifyReply> {
  const em = deps.storage.fork();
  const query = (request.query ?? {}) as Record<string, unknown>;
  const source = request.method === 'POST' ? request.body : query;
  const samlRequest = text(source, 'SAMLRequest');
  const relayState = text(source, 'RelayState') ?? null;
  if (relayState && relayState.length > MAX_RELAY_STATE) return cannotSignIn(reply, 'The application sent a RelayState that is too long.');
  if (samlRequest) {
    if (samlRequest.length > MAX_SAML_REQUEST_CHARS) return cannotSignIn(reply, 'The application sent a sign-in request that is too large.', 413);
    const rawUrl = request.raw.url ?? '';
    try {
      const validated = await validateAuthnRequest(
        request.method === 'POST' ? { binding: 'post', samlRequest } : { binding: 'redirect', samlRequest, rawQuery: rawUrl.slice(rawUrl.indexOf('?') + 1) },
        { em, orgId: org.id, ssoUrl: idpSsoUrl(deps.config, org.name), now: deps.clock.now() },
      );
      if (!(await recordRequestUse(deps, org.id, validated.serviceProvider.id, validated.requestId, validated.issueInstant))) throw new SamlRequestError('AuthnRequest ID already used');
      return {
        serviceProvider: validated.serviceProvider, requestId: validated.requestId, acsUrl: validated.acsUrl, relayState,
        authAfter: validated.forceAuthn ? deps.clock.now() : null, isPassive: validated.isPassive,
      };
    } catch (err) {
      if (!(err instanceof SamlRequestError)) throw err;
      request.log.warn({ orgId: org.id, reason: err.message }, 'SAML IdP: AuthnRequest refused');
      return cannotSignIn(reply, 'The application sent a sign-in request this server cannot accept. Start again from the application.');
    }
  }
  const resume = request.method === 'GET' ? text(query, 'resume') : undefined;
  if (resume) {
    const pending = await takePendingLogin(deps, org.id, resume);
    const sp = pending ? await em.findOne(SamlServiceProvider, { id: pending.serviceProviderId, orgId: org.id, active: true }) : null;
    // The ACS chosen at the request must still be registered: an endpoint removed meanwhile gets nothing.
    if (!pending || !sp || !sp.acsEndpoints.some((acs) => acs.url === pending.acsUrl)) {
      return cannotSignIn(reply, 'This sign-in is unknown, was already used or has expired. Start again from the application.');
    }
    return { serviceProvider: sp, requestId: pending.requestId ?? null, acsUrl: pending.acsUrl, relayState: pending.relayState ?? null, authAfter: pending.authAfter ?? null, isPassive: false };
  }
  const spEntityId = request.method === 'GET' ? text(query, 'sp') : undefined;
  if (spEntityId) {
    const sp = spEntityId.length <= 1024 ? await findActiveServiceProvider(em, org.id, spEntityId) : null;
    if (!sp) return cannotSignIn(reply, 'This organization has no such application.', 404);
    const acs = sp.acsEndpoints.find((endpoint) => endpoint.isDefault) ?? sp.acsEndpoints[0]!;
    return { serviceProvider: sp, requestId: null, acsUrl: acs.url, relayState, authAfter: null, isPassive: false };
  }
  return cannotSignIn(reply, 'No sign-in request was given.');
}

export function ssoRoute(deps: Deps) {
  const { config } = deps;
  return async (request: FastifyRequest<{ Params: { org: string } }>, reply: FastifyReply) => {
    const refused = await spendOrRefuse(deps, request, reply, SSO_EXTRA_POINTS);
    if (refused) return refused;
    const em = deps.storage.fork();
    const org = request.params.org.length <= 63 ? await findOrganization(em, { name: request.params.org }) : null;
    if (!org?.enabled) return unavailablePage(reply);
    const signIn = await readSignIn(deps, request, reply, org);
    if (!('serviceProvider' in signIn)) return signIn;

    const ctx = buildHttpContext(deps, request, 'rest');
    const found = await browserSession(ctx);
    // Compared in whole seconds: some databases keep datetimes without milliseconds.
    const fresh = found !== undefined && (!signIn.authAfter || Math.floor(authTimeOf(found.session).getTime() / 1000) >= Math.floor(signIn.authAfter.getTime() / 1000));
    if (!fresh) {
      if (signIn.isPassive) {
        const key = await currentKey(em, deps, org.id, org.name);
        const xml = await signedNoPassiveResponseXml({
          idpEntityId: idpEntityId(config, org.name), acsUrl: signIn.acsUrl, ...(signIn.requestId ? { inResponseTo: signIn.requestId } : {}), now: deps.clock.now(),
          signingKey: { privateKeyPem: deps.sealer.open(key.privateKeySealed), certificatePem: key.certificatePem },
        });
        return sendFormPost(reply, signIn.acsUrl, { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), ...(signIn.relayState ? { RelayState: signIn.relayState } : {}) });
      }
      if (!config.enableLoginPage) return cannotSignIn(reply, 'You are not signed in, and this server has no login page.', 401);
      if (found) {
        for (const cookie of clearedSessionCookies(config)) ctx.effects.setCookie(cookie);
        applyEffects(reply, ctx.effects);
      }
      const handle = await openPendingLogin(deps, {
        orgId: org.id, serviceProviderId: signIn.serviceProvider.id, requestId: signIn.requestId, acsUrl: signIn.acsUrl, relayState: signIn.relayState, authAfter: signIn.authAfter,
      });
      const resume = `${idpSsoUrl(config, org.name)}?${new URLSearchParams({ resume: handle }).toString()}`;
      return noStoreRedirect(reply, `${issuerOf(config)}/app?redirect_uri=${encodeURIComponent(resume)}`);
    }
    const { user, session } = found!;
    const membership = await em.findOne(OrgMember, { orgId: org.id, userId: user.id });
    if (!membership) {
      request.log.info({ orgId: org.id }, 'SAML IdP: signed-in user is not a member of the organization');
      return cannotSignIn(reply, `Only members of ${org.displayName} can sign in to its applications. Ask an administrator of ${org.displayName} to add you.`, 403);
    }
    let subject;
    try {
      subject = assertionSubject(config, signIn.serviceProvider, user, membership.roles);
    } catch (err) {
      if (!(err instanceof SubjectUnavailableError)) throw err;
      return cannotSignIn(reply, 'This application needs your email address, and your account has no verified one. Verify your email address, then sign in again.');
    }
    const key = await currentKey(em, deps, org.id, org.name);
    const xml = await signedResponseXml({
      idpEntityId: idpEntityId(config, org.name),
      spEntityId: signIn.serviceProvider.entityId,
      acsUrl: signIn.acsUrl,
      ...(signIn.requestId ? { inResponseTo: signIn.requestId } : {}),
      subject,
      authnInstant: authTimeOf(session),
      // Core 2.7.2: names this session to the SP without revealing its id.
      sessionIndex: `_${sha256Hex(`saml-session:${session.id}`).slice(0, 40)}`,
      now: deps.clock.now(),
      signingKey: { privateKeyPem: deps.sealer.open(key.privateKeySealed), certificatePem: key.certificatePem },
    });
    const fields: Record<string, string> = { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') };
    if (signIn.relayState) fields.RelayState = signIn.relayState;
    return sendFormPost(reply, signIn.acsUrl, fields);
  };
}
