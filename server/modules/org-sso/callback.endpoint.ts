/**
 * GET /sso/oidc/callback: where every organization's IdP returns the browser. The state must name a flow
 * this browser started, unused and unexpired (login-state.ts), else a page and no redirect. The connection
 * and the organization are read again: one deleted, disabled or repointed to another issuer since the start
 * refuses the flow (docs/operations.md: deleting stops SSO logins at once). An IdP error goes back to the
 * application's vetted target with `error` and its state (RFC 6749 section 4.1.2.1). Otherwise the code is
 * exchanged, the ID token validated, and the sign-in finished (finish-sign-in.ts). An `iss` in the response
 * that is not the flow's issuer is refused (RFC 9207 mix-up defence). Nothing the IdP answered is shown or
 * echoed.
 */
import { defineEndpoint } from '../../ops/endpoint.ts';
import { findOrganization } from '../organizations/index.ts';
import { flowNotUsable, redirectToApplication, signInParameter } from '../accounts/index.ts';
import { signInPage, signInRefusalPage, spendSignInAllowance } from '../../ops/sign-in-pages.ts';
import { findConnection } from './connections.service.ts';
import { idpSettingsOf } from './idp-settings.ts';
import { IdpError } from './guarded-http.ts';
import { SSO_BINDING_COOKIE, takeSsoFlow } from './login-state.ts';
import { ssoCallbackUrl } from './sso-urls.ts';
import type { SsoIdentity } from './sign-in.ts';
import { idpClientOf } from './idp.service.ts';
import { finishSsoSignIn } from './finish-sign-in.ts';
import { changedWhileSigningIn } from './sso-request.ts';

/** A callback costs outbound calls (token endpoint, keys) and writes: extra points of the per-IP bucket. */
const CALLBACK_EXTRA_POINTS = 4;
/** RFC 6749 section 4.1.2.1 error codes are ASCII words; anything else is passed on as access_denied. */
const ERROR_CODE = /^[a-z_]{1,64}$/;

export const ssoCallbackEndpoint = defineEndpoint({
  name: 'org_sso_callback',
  methods: ['GET'],
  path: '/sso/oidc/callback',
  csrf: 'origin',
  // The query as parsed: a repeated parameter is a list, which reads as absent.
  body: 'form',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const refused = await spendSignInAllowance(ctx.deps, request.ip, CALLBACK_EXTRA_POINTS);
    if (refused) return refused;
    const { deps, em } = ctx;
    const query = request.body;
    const taken = await takeSsoFlow(deps, signInParameter(query, 'state'), request.cookies[SSO_BINDING_COOKIE]);
    if (!taken.ok) return flowNotUsable(taken.reason);
    const { flow } = taken;
    const connection = await findConnection(em, { id: flow.connectionId });
    const org = connection ? await findOrganization(em, { id: flow.orgId }) : null;
    if (!connection?.enabled || connection.orgId !== flow.orgId || connection.issuer !== flow.issuer || !org?.enabled) return changedWhileSigningIn();
    // RFC 9207 section 2.4: an IdP that names itself in the response must be the one this flow went to
    // (every organization shares this callback, so a mix-up between IdPs is the attack to rule out).
    const responseIssuer = signInParameter(query, 'iss');
    if (responseIssuer !== undefined && responseIssuer !== flow.issuer) {
      ctx.log.warn({ orgId: org.id }, 'organization sign-in: authorization response from another issuer');
      return signInPage(400, 'This sign-in cannot be completed', ['The answer came from another sign-in service than the one this sign-in went to. Start again from the application.']);
    }
    const upstreamError = signInParameter(query, 'error');
    if (upstreamError) {
      return redirectToApplication(flow.redirectUri, { error: ERROR_CODE.test(upstreamError) ? upstreamError : 'access_denied', state: flow.appState });
    }
    const code = signInParameter(query, 'code');
    if (!code || code.length > 4096) return redirectToApplication(flow.redirectUri, { error: 'invalid_request', state: flow.appState });
    const idp = idpClientOf(deps);
    let identity: SsoIdentity;
    try {
      identity = await idp.identify(idpSettingsOf(deps, connection), { code, redirectUri: ssoCallbackUrl(deps.config), verifier: flow.verifier, nonce: flow.nonce, clock: deps.clock });
    } catch (err) {
      if (!(err instanceof IdpError)) throw err;
      ctx.log.warn({ orgId: org.id, err: err.message }, 'organization sign-in: IdP refused or failed');
      return signInPage(502, 'Sign-in failed', [`${org.displayName}'s sign-in service did not confirm this sign-in. Start again from the application.`]);
    }
    return finishSsoSignIn(ctx, { org, connection, identity, redirectUri: flow.redirectUri, appState: flow.appState, scope: flow.scope });
  },
});
