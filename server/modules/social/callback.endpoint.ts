/**
 * GET /oauth_callback/<provider> (docs/api-overview.md#http-endpoints-outside-v1): where the upstream returns the browser. The
 * state must name a flow this browser started, unused and unexpired (login-state.ts), else a page and no
 * redirect. An upstream error goes back to the application's vetted target with `error` and its state
 * (RFC 6749 section 4.1.2.1). Otherwise the code is exchanged, the identity established, the account found,
 * linked or created (sign-in.ts), and the session opened with its cookies; the browser returns to the target
 * with the application's state and no token (docs/api-overview.md#authentication). A sign-in the MFA gate
 * stops goes to the login UI's MFA step instead, with the `mfa` cookie and the target to return to.
 *
 * The sign-in runs in a transaction of its own, after the outbound calls: its mails and events are the
 * endpoint's after-commit work, sent once it committed; a refusal in it is thrown (accounts/upstream-sign-in.ts signInRefusal),
 * so that nothing of it is committed or sent and its afterRollback audit runs.
 */
import { defineEndpoint } from '../../ops/endpoint.ts';
import { afterUpstreamSignIn, flowNotUsable, redirectToApplication, signInRefusal, signInParameter } from '../accounts/index.ts';
import { signInPage, signInRefusalPage, spendSignInAllowance } from '../../ops/sign-in-pages.ts';
import { enabledProvider } from './providers.ts';
import { BINDING_COOKIE, takeLoginState } from './login-state.ts';
import { UpstreamError } from './upstream-http.ts';
import { completeSocialSignIn, type SocialSignInResult } from './sign-in.ts';
import type { UpstreamIdentity } from './profiles.ts';
import { upstreamsOf } from './upstreams.service.ts';
import { callbackUrl, unknownProvider } from './social-request.ts';

/**
 * A callback costs outbound calls (token endpoint, keys or profile) and writes: it spends this many points
 * of the per-IP bucket, on top of the one the request hook spent, so a flood of forged callbacks is
 * throttled sooner than ordinary requests (OWASP ASVS 11.1.4).
 */
const CALLBACK_EXTRA_POINTS = 4;
/** RFC 6749 section 4.1.2.1 error codes are ASCII words; anything else is passed on as access_denied. */
const ERROR_CODE = /^[a-z_]{1,64}$/;

export const socialCallbackEndpoint = defineEndpoint({
  name: 'social_callback',
  methods: ['GET'],
  path: '/oauth_callback/:provider',
  csrf: 'origin',
  // The query as parsed: a repeated parameter is a list, which reads as absent.
  body: 'form',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const { deps } = ctx;
    const provider = enabledProvider(deps.config, request.params.provider!);
    if (!provider) return unknownProvider();
    const refused = await spendSignInAllowance(deps, request.ip, CALLBACK_EXTRA_POINTS);
    if (refused) return refused;
    const query = request.body;
    const taken = await takeLoginState(deps, provider.spec.name, signInParameter(query, 'state'), request.cookies[BINDING_COOKIE]);
    if (!taken.ok) return flowNotUsable(taken.reason);
    const { login } = taken;
    const upstreamError = signInParameter(query, 'error');
    if (upstreamError) {
      return redirectToApplication(login.redirectUri, { error: ERROR_CODE.test(upstreamError) ? upstreamError : 'access_denied', state: login.appState });
    }
    const code = signInParameter(query, 'code');
    if (!code || code.length > 4096) return redirectToApplication(login.redirectUri, { error: 'invalid_request', state: login.appState });
    const upstreams = upstreamsOf(deps);
    let identity: UpstreamIdentity;
    try {
      identity = await upstreams.identify(provider, { code, redirectUri: callbackUrl(deps, provider.spec.name), verifier: login.verifier, nonce: login.nonce, clock: deps.clock });
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw signInRefusal(err);
      ctx.log.warn({ provider: provider.spec.name, err: err.message }, 'social sign-in: upstream refused or failed');
      return signInPage(502, 'Sign-in failed', [`${provider.spec.name} did not confirm this sign-in. Start again from the application.`]);
    }
    let result: SocialSignInResult;
    try {
      result = await ctx.em.transactional((em) =>
        completeSocialSignIn({ ...ctx, em }, { provider: provider.spec.name, identity, roles: login.roles, scope: login.scope }));
    } catch (err) {
      throw signInRefusal(err);
    }
    if (!result.gate) deps.metrics.login('success');
    return afterUpstreamSignIn(deps.config, result.gate, { redirectUri: login.redirectUri, appState: login.appState });
  },
});
