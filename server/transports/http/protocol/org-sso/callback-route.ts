/**
 * GET /sso/oidc/callback: where every organization's IdP returns the browser. The state must name a flow
 * this browser started, unused and unexpired (org-sso/login-state.ts), else a page and no redirect. The
 * connection and the organization are read again: one deleted, disabled or repointed to another issuer
 * since the start refuses the flow (docs/operations.md: deleting stops SSO logins at once). An IdP
 * error goes back to the application's vetted target with `error` and its state (RFC 6749 section
 * 4.1.2.1). Otherwise the code is exchanged, the ID token validated, the account found, linked or created
 * (org-sso/sign-in.ts), and the session opened; the browser returns to the target with the application's
 * state and no token (docs/api-overview.md#authentication), or goes to the login UI's MFA step when the gate stops it.
 * An `iss` in the response that is not the flow's issuer is refused (RFC 9207 mix-up defence).
 * Nothing the IdP answered is shown or echoed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { parseCookieHeader } from '../../../../kernel/effects.ts';
import { findOrganization } from '../../../../modules/organizations/index.ts';
import {
  IdpError, SSO_BINDING_COOKIE, findConnection, idpSettingsOf, ssoCallbackUrl, takeSsoFlow, type IdpClient, type SsoIdentity,
} from '../../../../modules/org-sso/index.ts';
import { redirectToApplication, sendSocialPage } from '../social/social-pages.ts';
import { queryText, spendOrRefuse } from './start-route.ts';
import { finishSsoSignIn } from './complete-sign-in.ts';

/** A callback costs outbound calls (token endpoint, keys) and writes: extra points of the per-IP bucket. */
const CALLBACK_EXTRA_POINTS = 4;
/** RFC 6749 section 4.1.2.1 error codes are ASCII words; anything else is passed on as access_denied. */
const ERROR_CODE = /^[a-z_]{1,64}$/;

export function callbackRoute(deps: Deps, idp: IdpClient) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const refused = await spendOrRefuse(deps, request, reply, CALLBACK_EXTRA_POINTS);
    if (refused) return refused;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const taken = await takeSsoFlow(deps, queryText(query, 'state'), parseCookieHeader(request.headers.cookie)[SSO_BINDING_COOKIE]);
    if (!taken.ok) {
      return sendSocialPage(reply, 400, 'This sign-in cannot be completed', [
        taken.reason === 'wrong_browser'
          ? 'This sign-in was started in another browser. Start again from the application in this browser.'
          : 'This sign-in is unknown, was already used or has expired. Start again from the application.',
      ]);
    }
    const { flow } = taken;
    const em = deps.storage.fork();
    const connection = await findConnection(em, { id: flow.connectionId });
    const org = connection ? await findOrganization(em, { id: flow.orgId }) : null;
    if (!connection?.enabled || connection.orgId !== flow.orgId || connection.issuer !== flow.issuer || !org?.enabled) {
      return sendSocialPage(reply, 403, 'Organization sign-in unavailable', ['This organization\'s single sign-on was turned off or changed while you were signing in. Start again from the application.']);
    }
    // RFC 9207 section 2.4: an IdP that names itself in the response must be the one this flow went to
    // (every organization shares this callback, so a mix-up between IdPs is the attack to rule out).
    const responseIssuer = queryText(query, 'iss');
    if (responseIssuer !== undefined && responseIssuer !== flow.issuer) {
      request.log.warn({ orgId: org.id }, 'organization sign-in: authorization response from another issuer');
      return sendSocialPage(reply, 400, 'This sign-in cannot be completed', ['The answer came from another sign-in service than the one this sign-in went to. Start again from the application.']);
    }
    const upstreamError = queryText(query, 'error');
    if (upstreamError) {
      return redirectToApplication(reply, flow.redirectUri, { error: ERROR_CODE.test(upstreamError) ? upstreamError : 'access_denied', state: flow.appState });
    }
    const code = queryText(query, 'code');
    if (!code || code.length > 4096) return redirectToApplication(reply, flow.redirectUri, { error: 'invalid_request', state: flow.appState });
    let identity: SsoIdentity;
    try {
      identity = await idp.identify(idpSettingsOf(deps, connection), { code, redirectUri: ssoCallbackUrl(deps.config), verifier: flow.verifier, nonce: flow.nonce, clock: deps.clock });
    } catch (err) {
      if (!(err instanceof IdpError)) throw err;
      request.log.warn({ orgId: org.id, err: err.message }, 'organization sign-in: IdP refused or failed');
      return sendSocialPage(reply, 502, 'Sign-in failed', [`${org.displayName}'s sign-in service did not confirm this sign-in. Start again from the application.`]);
    }
    return finishSsoSignIn(deps, request, reply, { org, connection, identity, redirectUri: flow.redirectUri, appState: flow.appState, scope: flow.scope });
  };
}
