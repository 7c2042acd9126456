/**
 * GET /oauth_callback/<provider> (docs/api-overview.md#http-endpoints-outside-v1): where the upstream returns the browser. The
 * state must name a flow this browser started, unused and unexpired (login-state.ts), else a page and no
 * redirect. An upstream error goes back to the application's vetted target with `error` and its state
 * (RFC 6749 section 4.1.2.1). Otherwise the code is exchanged, the identity established, the account found,
 * linked or created (modules/social/sign-in.ts), and the session opened with its cookies; the browser
 * returns to the target with the application's state and no token (docs/api-overview.md#authentication). A sign-in the
 * MFA gate stops goes to the login UI's MFA step instead, with the `mfa` cookie and the target to return to.
 *
 * POST serves Apple's form_post answer (OAuth 2.0 Form Post Response Mode): a cross-site POST carries no
 * SameSite=Lax cookie, so it is turned into a GET of this same route (a top-level navigation, which does),
 * and nothing is done on the POST itself.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { AppError, HTTP_ERROR_MAP, runAfterRollback } from '../../../../kernel/errors.ts';
import { clientKey } from '../../../../modules/limits/index.ts';
import { parseCookieHeader } from '../../../../kernel/effects.ts';
import type { HandlerContext } from '../../../../ops/define.ts';
import {
  BINDING_COOKIE,
  SignInRefused,
  UpstreamError,
  completeSocialSignIn,
  enabledProvider,
  takeLoginState,
  type SocialUpstreams,
} from '../../../../modules/social/index.ts';
import { applyEffects, buildHttpContext } from '../../request-context.ts';
import { readOAuthBody, stringField } from '../../../../modules/oauth/index.ts';
import { callbackUrl } from './login-route.ts';
import { notFoundPage, redirectToApplication, sendSocialPage } from './social-pages.ts';
import { mfaStepUrl } from '../../mfa-step-url.ts';

/**
 * A callback costs outbound calls (token endpoint, keys or profile) and writes: it spends this many points
 * of the per-IP bucket, on top of the one the request hook spent, so a flood of forged callbacks is
 * throttled sooner than ordinary requests (OWASP ASVS 11.1.4).
 */
const CALLBACK_EXTRA_POINTS = 4;
/** RFC 6749 section 4.1.2.1 error codes are ASCII words; anything else is passed on as access_denied. */
const ERROR_CODE = /^[a-z_]{1,64}$/;

function queryText(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function formPostRoute(deps: Deps) {
  return async (request: FastifyRequest<{ Params: { provider: string } }>, reply: FastifyReply) => {
    const provider = enabledProvider(deps.config, request.params.provider);
    if (!provider) return notFoundPage(reply);
    if (provider.spec.responseMode !== 'form_post') {
      reply.header('allow', 'GET');
      return sendSocialPage(reply, 405, 'Method not allowed', ['This provider returns to this address with GET.']);
    }
    const body = readOAuthBody(request.body);
    const url = new URL(callbackUrl(deps, provider.spec.name));
    for (const name of ['code', 'state', 'error']) {
      const value = stringField(body, name);
      if (value !== undefined && value.length <= 4096) url.searchParams.set(name, value);
    }
    // Relative, so the browser stays on the host it posted to.
    return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').redirect(`${url.pathname}${url.search}`, 303);
  };
}

export function callbackRoute(deps: Deps, upstreams: SocialUpstreams) {
  return async (request: FastifyRequest<{ Params: { provider: string } }>, reply: FastifyReply) => {
    const provider = enabledProvider(deps.config, request.params.provider);
    if (!provider) return notFoundPage(reply);
    try {
      await deps.limits.consume('ip', clientKey(request.ip), CALLBACK_EXTRA_POINTS);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
      return sendSocialPage(reply, HTTP_ERROR_MAP[err.kind].status, 'Too many sign-in attempts', ['Wait a moment and try again.']);
    }
    const query = (request.query ?? {}) as Record<string, unknown>;
    const taken = await takeLoginState(deps, provider.spec.name, queryText(query, 'state'), parseCookieHeader(request.headers.cookie)[BINDING_COOKIE]);
    if (!taken.ok) {
      return sendSocialPage(reply, 400, 'This sign-in cannot be completed', [
        taken.reason === 'wrong_browser'
          ? 'This sign-in was started in another browser. Start again from the application in this browser.'
          : 'This sign-in is unknown, was already used or has expired. Start again from the application.',
      ]);
    }
    const { login } = taken;
    const upstreamError = queryText(query, 'error');
    if (upstreamError) {
      return redirectToApplication(reply, login.redirectUri, { error: ERROR_CODE.test(upstreamError) ? upstreamError : 'access_denied', state: login.appState });
    }
    const code = queryText(query, 'code');
    if (!code || code.length > 4096) return redirectToApplication(reply, login.redirectUri, { error: 'invalid_request', state: login.appState });
    const ctx = buildHttpContext(deps, request, 'rest');
    try {
      const identity = await upstreams.identify(provider, { code, redirectUri: callbackUrl(deps, provider.spec.name), verifier: login.verifier, nonce: login.nonce, clock: deps.clock });
      const pending: Array<() => Promise<void>> = [];
      const result = await deps.storage.fork().transactional((em) => {
        const handlerCtx: HandlerContext = { ...ctx, em, afterCommit: (task) => void pending.push(task) };
        return completeSocialSignIn(handlerCtx, { provider: provider.spec.name, identity, roles: login.roles, scope: login.scope });
      });
      for (const task of pending) await task();
      if (result.gate) {
        // The second factor is asked for by the login UI, which then continues to the application.
        applyEffects(reply, ctx.effects);
        return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').redirect(mfaStepUrl(deps.config, result.gate, { redirectUri: login.redirectUri, state: login.appState }), 302);
      }
      deps.metrics.login('success');
    } catch (err) {
      await runAfterRollback(err, request.log);
      if (err instanceof SignInRefused) return sendSocialPage(reply, err.status, err.heading, err.paragraphs);
      if (err instanceof UpstreamError) {
        request.log.warn({ provider: provider.spec.name, err: err.message }, 'social sign-in: upstream refused or failed');
        return sendSocialPage(reply, 502, 'Sign-in failed', [`${provider.spec.name} did not confirm this sign-in. Start again from the application.`]);
      }
      if (err instanceof AppError && err.kind !== 'internal') {
        return sendSocialPage(reply, HTTP_ERROR_MAP[err.kind].status, 'Sign-in failed', [`${err.message}.`]);
      }
      throw err;
    }
    applyEffects(reply, ctx.effects);
    return redirectToApplication(reply, login.redirectUri, { state: login.appState });
  };
}
