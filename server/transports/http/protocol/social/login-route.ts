/**
 * GET /oauth_login/<provider> (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints): checks
 * what the application asks for, keeps it server-side with a fresh state, PKCE verifier and nonce
 * (login-state.ts), and sends the browser to the upstream's authorization endpoint. The target is
 * `redirectURL`, falling back to `redirect_uri`, which the SDK sends (docs/sdk-compatibility.md); one that
 * is not allowed is refused with a page here, never redirected to (OWASP ASVS 5.1.5).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { AppError } from '../../../../kernel/errors.ts';
import { parseCookieHeader, ResponseEffects } from '../../../../kernel/effects.ts';
import { isAllowedRedirect } from '../../../../modules/accounts/index.ts';
import { DEFAULT_SCOPE } from '../../../../modules/tokens/index.ts';
import { rolesForSignup } from '../../../../modules/users/index.ts';
import { BINDING_COOKIE, enabledProvider, startLoginState, type SocialUpstreams } from '../../../../modules/social/index.ts';
import { applyEffects } from '../../request-context.ts';
import { notFoundPage, sendSocialPage } from './social-pages.ts';

const MAX_REDIRECT = 2048;
const MAX_STATE = 1024;
const MAX_SCOPES = 32;
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/; // RFC 6749 section 3.3 scope-token, bounded

function queryText(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The redirect URI registered at every upstream: {--url}/oauth_callback/<provider>. */
export function callbackUrl(deps: Pick<Deps, 'config'>, provider: string): string {
  return `${deps.config.url!.replace(/\/+$/, '')}/oauth_callback/${provider}`;
}

type Checked = { ok: true; redirectUri: string; appState: string; roles: string[]; scope: string[] } | { ok: false; message: string };

function checkRequest(deps: Deps, query: Record<string, unknown>): Checked {
  const redirectUri = queryText(query, 'redirectURL') ?? queryText(query, 'redirect_uri');
  if (!redirectUri) return { ok: false, message: 'The application did not say where to return (redirectURL).' };
  if (redirectUri.length > MAX_REDIRECT || !isAllowedRedirect(deps.config, redirectUri)) {
    return { ok: false, message: 'The application asked to return to an address this server does not allow.' };
  }
  const appState = queryText(query, 'state');
  if (!appState) return { ok: false, message: 'The application did not send a state.' };
  if (appState.length > MAX_STATE) return { ok: false, message: 'The application sent a state that is too long.' };
  const asked = (queryText(query, 'roles') ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  let roles: string[];
  try {
    // The roles of a new account must be within --roles and not protected (docs/configuration.md).
    rolesForSignup(deps.config, asked);
    roles = [...new Set(asked)];
  } catch (err) {
    if (err instanceof AppError) return { ok: false, message: 'The application asked for roles this server does not allow.' };
    throw err;
  }
  const scopeText = queryText(query, 'scope');
  const scope = scopeText ? [...new Set(scopeText.split(/\s+/).filter(Boolean))] : [...DEFAULT_SCOPE];
  if (scope.length > MAX_SCOPES || !scope.every((s) => SCOPE_TOKEN.test(s))) return { ok: false, message: 'The application asked for a scope that is not valid.' };
  return { ok: true, redirectUri, appState, roles, scope };
}

export function loginRoute(deps: Deps, upstreams: SocialUpstreams) {
  return async (request: FastifyRequest<{ Params: { provider: string } }>, reply: FastifyReply) => {
    const provider = enabledProvider(deps.config, request.params.provider);
    if (!provider) return notFoundPage(reply);
    const checked = checkRequest(deps, (request.query ?? {}) as Record<string, unknown>);
    if (!checked.ok) return sendSocialPage(reply, 400, 'This sign-in request cannot be used', [checked.message]);
    const cookies = parseCookieHeader(request.headers.cookie);
    const started = await startLoginState(deps, cookies[BINDING_COOKIE], {
      provider: provider.spec.name,
      redirectUri: checked.redirectUri,
      appState: checked.appState,
      roles: checked.roles,
      scope: checked.scope,
    });
    let location: string;
    try {
      location = await upstreams.authorizeUrl(provider, {
        redirectUri: callbackUrl(deps, provider.spec.name),
        state: started.state,
        codeChallenge: started.codeChallenge,
        nonce: started.nonce,
      });
    } catch (err) {
      request.log.warn({ provider: provider.spec.name, err: (err as Error).message }, 'social sign-in: upstream discovery failed');
      return sendSocialPage(reply, 502, 'Sign-in is unavailable', [`${provider.spec.name} could not be reached. Try again later.`]);
    }
    const effects = new ResponseEffects();
    effects.setCookie(started.bindingCookie);
    applyEffects(reply, effects);
    return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').redirect(location, 302);
  };
}
