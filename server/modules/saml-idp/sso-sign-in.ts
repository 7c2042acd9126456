/**
 * The sign-in a request to /saml/<organization>/sso asks for (sso.endpoint.ts), by one of its three forms:
 * an AuthnRequest (SAMLRequest, by either binding), a return from the login UI (resume), or an IdP-initiated
 * sign-in (sp, Profiles 4.1.5). Anything else is a fixed page that echoes nothing of the request; the log
 * names the rule only.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import type { EndpointAnswer, EndpointRequest } from '../../ops/endpoint.ts';
import { signInPage } from '../../ops/sign-in-pages.ts';
import type { HandlerContext } from '../../ops/define.ts';
import type { OrganizationRow } from '../organizations/index.ts';
import { MAX_SAML_REQUEST_CHARS, SamlRequestError, validateAuthnRequest } from './authn-request.ts';
import { MAX_RELAY_STATE, formText, receivedBy } from './browser-request.ts';
import { idpSsoUrl } from './idp-urls.ts';
import { takePendingLogin } from './pending-logins.ts';
import { recordRequestUse } from './request-replay.ts';
import { SamlServiceProvider, type SamlServiceProviderRow } from './saml-idp.entities.ts';
import { findActiveServiceProvider } from './service-providers.service.ts';

export interface SignIn {
  serviceProvider: SamlServiceProviderRow;
  requestId: string | null;
  acsUrl: string;
  relayState: string | null;
  /** ForceAuthn: the sign-in must be at or after this moment. */
  authAfter: Date | null;
  isPassive: boolean;
}

export const cannotSignIn = (paragraph: string, status = 400): EndpointAnswer => signInPage(status, 'This sign-in cannot be completed', [paragraph]);

/** An AuthnRequest: validated (authn-request.ts), then its ID recorded so it is answered once (request-replay.ts). */
async function requestedSignIn(
  ctx: HandlerContext, request: EndpointRequest, org: OrganizationRow, samlRequest: string, relayState: string | null,
): Promise<SignIn | EndpointAnswer> {
  const { deps } = ctx;
  if (samlRequest.length > MAX_SAML_REQUEST_CHARS) return cannotSignIn('The application sent a sign-in request that is too large.', 413);
  try {
    const validated = await validateAuthnRequest(receivedBy(request, samlRequest), {
      em: ctx.em, orgId: org.id, ssoUrl: idpSsoUrl(deps.config, org.name), now: deps.clock.now(),
    });
    if (!(await recordRequestUse(deps, org.id, validated.serviceProvider.id, validated.requestId, validated.issueInstant))) throw new SamlRequestError('AuthnRequest ID already used');
    return {
      serviceProvider: validated.serviceProvider, requestId: validated.requestId, acsUrl: validated.acsUrl, relayState,
      authAfter: validated.forceAuthn ? deps.clock.now() : null, isPassive: validated.isPassive,
    };
  } catch (err) {
    if (!(err instanceof SamlRequestError)) throw err;
    ctx.log.warn({ orgId: org.id, reason: err.message }, 'SAML IdP: AuthnRequest refused');
    return cannotSignIn('The application sent a sign-in request this server cannot accept. Start again from the application.');
  }
}

/** Back from the login UI (pending-logins.ts). */
async function resumedSignIn(deps: Deps, em: EntityManager, org: OrganizationRow, resume: string): Promise<SignIn | EndpointAnswer> {
  const pending = await takePendingLogin(deps, org.id, resume);
  const sp = pending ? await em.findOne(SamlServiceProvider, { id: pending.serviceProviderId, orgId: org.id, active: true }) : null;
  // The ACS chosen at the request must still be registered: an endpoint removed meanwhile gets nothing.
  if (!pending || !sp || !sp.acsEndpoints.some((acs) => acs.url === pending.acsUrl)) {
    return cannotSignIn('This sign-in is unknown, was already used or has expired. Start again from the application.');
  }
  return { serviceProvider: sp, requestId: pending.requestId ?? null, acsUrl: pending.acsUrl, relayState: pending.relayState ?? null, authAfter: pending.authAfter ?? null, isPassive: false };
}

/** The sign-in this request asks for, or the page that refuses it. */
export async function readSignIn(ctx: HandlerContext, request: EndpointRequest, org: OrganizationRow): Promise<SignIn | EndpointAnswer> {
  // Body kind 'form': the POST body or the GET query, as parsed (a repeated parameter is a list, read as absent).
  const form = request.body;
  const samlRequest = formText(form, 'SAMLRequest');
  const relayState = formText(form, 'RelayState') ?? null;
  if (relayState && relayState.length > MAX_RELAY_STATE) return cannotSignIn('The application sent a RelayState that is too long.');
  if (samlRequest) return requestedSignIn(ctx, request, org, samlRequest, relayState);
  const resume = request.method === 'GET' ? formText(form, 'resume') : undefined;
  if (resume) return resumedSignIn(ctx.deps, ctx.em, org, resume);
  const spEntityId = request.method === 'GET' ? formText(form, 'sp') : undefined;
  if (spEntityId) {
    const sp = spEntityId.length <= 1024 ? await findActiveServiceProvider(ctx.em, org.id, spEntityId) : null;
    if (!sp) return cannotSignIn('This organization has no such application.', 404);
    const acs = sp.acsEndpoints.find((endpoint) => endpoint.isDefault) ?? sp.acsEndpoints[0]!;
    return { serviceProvider: sp, requestId: null, acsUrl: acs.url, relayState, authAfter: null, isPassive: false };
  }
  return cannotSignIn('No sign-in request was given.');
}
