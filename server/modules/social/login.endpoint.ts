/**
 * GET /oauth_login/<provider> (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints): checks
 * what the application asks for, keeps it server-side with a fresh state, PKCE verifier and nonce
 * (login-state.ts), and sends the browser to the upstream's authorization endpoint. The target is
 * `redirectURL`, falling back to `redirect_uri`, which the SDK sends (docs/sdk-compatibility.md); one that
 * is not allowed is refused with a page here, never redirected to (OWASP ASVS 5.1.5).
 */
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { defineEndpoint } from '../../ops/endpoint.ts';
import { isAllowedRedirect, signInRedirect, signInParameter } from '../accounts/index.ts';
import { signInPage, signInRefusalPage } from '../../ops/sign-in-pages.ts';
import { DEFAULT_SCOPE } from '../tokens/index.ts';
import { rolesForSignup } from '../users/index.ts';
import { enabledProvider } from './providers.ts';
import { BINDING_COOKIE, startLoginState } from './login-state.ts';
import { upstreamsOf } from './upstreams.service.ts';
import { callbackUrl, unknownProvider } from './social-request.ts';

const MAX_REDIRECT = 2048;
const MAX_STATE = 1024;
const MAX_SCOPES = 32;
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/; // RFC 6749 section 3.3 scope-token, bounded

type Checked = { ok: true; redirectUri: string; appState: string; roles: string[]; scope: string[] } | { ok: false; message: string };

function checkRequest(deps: Deps, query: Readonly<Record<string, unknown>>): Checked {
  const redirectUri = signInParameter(query, 'redirectURL') ?? signInParameter(query, 'redirect_uri');
  if (!redirectUri) return { ok: false, message: 'The application did not say where to return (redirectURL).' };
  if (redirectUri.length > MAX_REDIRECT || !isAllowedRedirect(deps.config, redirectUri)) {
    return { ok: false, message: 'The application asked to return to an address this server does not allow.' };
  }
  const appState = signInParameter(query, 'state');
  if (!appState) return { ok: false, message: 'The application did not send a state.' };
  if (appState.length > MAX_STATE) return { ok: false, message: 'The application sent a state that is too long.' };
  const asked = (signInParameter(query, 'roles') ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  let roles: string[];
  try {
    // The roles of a new account must be within --roles and not protected (docs/configuration.md).
    rolesForSignup(deps.config, asked);
    roles = [...new Set(asked)];
  } catch (err) {
    if (err instanceof AppError) return { ok: false, message: 'The application asked for roles this server does not allow.' };
    throw err;
  }
  const scopeText = signInParameter(query, 'scope');
  const scope = scopeText ? [...new Set(scopeText.split(/\s+/).filter(Boolean))] : [...DEFAULT_SCOPE];
  if (scope.length > MAX_SCOPES || !scope.every((s) => SCOPE_TOKEN.test(s))) return { ok: false, message: 'The application asked for a scope that is not valid.' };
  return { ok: true, redirectUri, appState, roles, scope };
}

export const socialLoginEndpoint = defineEndpoint({
  name: 'social_login',
  methods: ['GET'],
  path: '/oauth_login/:provider',
  csrf: 'origin',
  // The query as parsed: a repeated parameter is a list, which reads as absent.
  body: 'form',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const { deps } = ctx;
    const provider = enabledProvider(deps.config, request.params.provider!);
    if (!provider) return unknownProvider();
    const checked = checkRequest(deps, request.body);
    if (!checked.ok) return signInPage(400, 'This sign-in request cannot be used', [checked.message]);
    const started = await startLoginState(deps, request.cookies[BINDING_COOKIE], {
      provider: provider.spec.name,
      redirectUri: checked.redirectUri,
      appState: checked.appState,
      roles: checked.roles,
      scope: checked.scope,
    });
    const upstreams = upstreamsOf(deps);
    let location: string;
    try {
      location = await upstreams.authorizeUrl(provider, {
        redirectUri: callbackUrl(deps, provider.spec.name),
        state: started.state,
        codeChallenge: started.codeChallenge,
        nonce: started.nonce,
      });
    } catch (err) {
      ctx.log.warn({ provider: provider.spec.name, err: (err as Error).message }, 'social sign-in: upstream discovery failed');
      return signInPage(502, 'Sign-in is unavailable', [`${provider.spec.name} could not be reached. Try again later.`]);
    }
    ctx.effects.setCookie(started.bindingCookie);
    return signInRedirect(location);
  },
});
