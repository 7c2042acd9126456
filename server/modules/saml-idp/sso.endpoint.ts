/**
 * /saml/<organization>/sso, the IdP's SingleSignOnService (SAML 2.0 Profiles 4.1 Web Browser SSO):
 *
 * - GET with SAMLRequest: an AuthnRequest by the HTTP-Redirect binding (Bindings 3.4); POST with
 *   SAMLRequest: by the HTTP-POST binding (Bindings 3.5). Validated by authn-request.ts, then its ID
 *   recorded so it is answered once (request-replay.ts);
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
 * nothing of the request (sso-sign-in.ts); the log names the rule only.
 *
 * POST is exempt from the Origin rule of docs/api-overview.md#authentication: the SP's page posts it
 * cross-site by design, and it only starts a sign-in whose answer goes to a registered ACS.
 */
import { sha256Hex } from '../../kernel/crypto.ts';
import { clearedSessionCookies } from '../../kernel/cookies.ts';
import { defineEndpoint, noStoreRedirect, type EndpointAnswer } from '../../ops/endpoint.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { organizationSignInUnavailable, signInRefusalPage, spendSignInAllowance } from '../../ops/sign-in-pages.ts';
import { OrgMember, type OrganizationRow } from '../organizations/index.ts';
import { authTimeOf } from '../sessions/index.ts';
import { issuerOf } from '../tokens/index.ts';
import { SubjectUnavailableError, assertionSubject } from './assertion-subject.ts';
import { enabledOrganization } from './browser-request.ts';
import { browserSession, type BrowserSession } from '../sessions/index.ts';
import { currentKey } from './idp-keys.service.ts';
import { idpEntityId, idpSsoUrl } from './idp-urls.ts';
import { openPendingLogin } from './pending-logins.ts';
import { signedNoPassiveResponseXml, signedResponseXml } from './signed-response.ts';
import { cannotSignIn, readSignIn, type SignIn } from './sso-sign-in.ts';

/** Validation costs a signature check and writes: extra points of the per-IP bucket. */
const SSO_EXTRA_POINTS = 2;

/** The signing key of the organization's IdP, opened for one answer. */
async function signingKey(ctx: HandlerContext, org: OrganizationRow) {
  const key = await currentKey(ctx.em, ctx.deps, org.id, org.name);
  return { privateKeyPem: ctx.deps.sealer.open(key.privateKeySealed), certificatePem: key.certificatePem };
}

/** Without a fresh sign-in: NoPassive for an IsPassive request, else the login UI, to come back by resume. */
async function signInFirst(ctx: HandlerContext, org: OrganizationRow, signIn: SignIn, found: BrowserSession | undefined): Promise<EndpointAnswer> {
  const { config } = ctx.deps;
  if (signIn.isPassive) {
    const xml = await signedNoPassiveResponseXml({
      idpEntityId: idpEntityId(config, org.name), acsUrl: signIn.acsUrl, ...(signIn.requestId ? { inResponseTo: signIn.requestId } : {}), now: ctx.deps.clock.now(),
      signingKey: await signingKey(ctx, org),
    });
    return { kind: 'form-post', action: signIn.acsUrl, fields: { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), ...(signIn.relayState ? { RelayState: signIn.relayState } : {}) } };
  }
  if (!config.enableLoginPage) return cannotSignIn('You are not signed in, and this server has no login page.', 401);
  if (found) for (const cookie of clearedSessionCookies(config)) ctx.effects.setCookie(cookie);
  const handle = await openPendingLogin(ctx.deps, {
    orgId: org.id, serviceProviderId: signIn.serviceProvider.id, requestId: signIn.requestId, acsUrl: signIn.acsUrl, relayState: signIn.relayState, authAfter: signIn.authAfter,
  });
  const resume = `${idpSsoUrl(config, org.name)}?${new URLSearchParams({ resume: handle }).toString()}`;
  return noStoreRedirect(`${issuerOf(config)}/app?redirect_uri=${encodeURIComponent(resume)}`);
}

/** A member signed in freshly enough: the signed Response, posted to the ACS. */
async function signedResponse(ctx: HandlerContext, org: OrganizationRow, signIn: SignIn, { user, session }: BrowserSession): Promise<EndpointAnswer> {
  const { config } = ctx.deps;
  const membership = await ctx.em.findOne(OrgMember, { orgId: org.id, userId: user.id });
  if (!membership) {
    ctx.log.info({ orgId: org.id }, 'SAML IdP: signed-in user is not a member of the organization');
    return cannotSignIn(`Only members of ${org.displayName} can sign in to its applications. Ask an administrator of ${org.displayName} to add you.`, 403);
  }
  let subject;
  try {
    subject = assertionSubject(config, signIn.serviceProvider, user, membership.roles);
  } catch (err) {
    if (!(err instanceof SubjectUnavailableError)) throw err;
    return cannotSignIn('This application needs your email address, and your account has no verified one. Verify your email address, then sign in again.');
  }
  const xml = await signedResponseXml({
    idpEntityId: idpEntityId(config, org.name),
    spEntityId: signIn.serviceProvider.entityId,
    acsUrl: signIn.acsUrl,
    ...(signIn.requestId ? { inResponseTo: signIn.requestId } : {}),
    subject,
    authnInstant: authTimeOf(session),
    // Core 2.7.2: names this session to the SP without revealing its id.
    sessionIndex: `_${sha256Hex(`saml-session:${session.id}`).slice(0, 40)}`,
    now: ctx.deps.clock.now(),
    signingKey: await signingKey(ctx, org),
  });
  const fields: Record<string, string> = { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') };
  if (signIn.relayState) fields.RelayState = signIn.relayState;
  return { kind: 'form-post', action: signIn.acsUrl, fields };
}

export const ssoEndpoint = defineEndpoint({
  name: 'saml_idp_sso',
  methods: ['GET', 'POST'],
  path: '/saml/:org/sso',
  csrf: { exempt: 'an SP posts its AuthnRequest cross-site by design (SAML Bindings 3.5); it only starts a sign-in answered at an ACS registered for that SP' },
  body: 'form',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const refused = await spendSignInAllowance(ctx.deps, request.ip, SSO_EXTRA_POINTS);
    if (refused) return refused;
    const org = await enabledOrganization(ctx.em, request.params.org!);
    if (!org) return organizationSignInUnavailable();
    const signIn = await readSignIn(ctx, request, org);
    if (!('serviceProvider' in signIn)) return signIn;
    const found = await browserSession(ctx);
    // Compared in whole seconds: some databases keep datetimes without milliseconds.
    const fresh = found !== undefined && (!signIn.authAfter || Math.floor(authTimeOf(found.session).getTime() / 1000) >= Math.floor(signIn.authAfter.getTime() / 1000));
    if (!fresh) return signInFirst(ctx, org, signIn, found);
    return signedResponse(ctx, org, signIn, found);
  },
});
