/**
 * GET /sso/<organization>/start?redirect_uri=&state=&login_hint=&scope= (the sso_url of org_discovery):
 * checks what the application asks for, keeps it server-side with a fresh state, PKCE verifier and nonce
 * (login-state.ts), and sends the browser to the organization IdP's authorization endpoint, or to its SAML
 * IdP with an AuthnRequest when SAML is the organization's enabled connection (saml-start.ts). An
 * organization that is unknown, disabled, or without an enabled connection gets one and the same page (the
 * answer does not tell which). A target that is not allowed is refused with a page, never redirected to
 * (OWASP ASVS 5.1.5).
 */
import type { Deps } from '../../kernel/deps.ts';
import { defineEndpoint } from '../../ops/endpoint.ts';
import { isAllowedRedirect, signInRedirect, signInParameter } from '../accounts/index.ts';
import { organizationSignInUnavailable, signInPage, signInRefusalPage, spendSignInAllowance } from '../../ops/sign-in-pages.ts';
import { DEFAULT_SCOPE } from '../tokens/index.ts';
import { findOrganization } from '../organizations/index.ts';
import { findConnection } from './connections.service.ts';
import { findSamlConnection } from './saml-connections.service.ts';
import { idpSettingsOf } from './idp-settings.ts';
import { SSO_BINDING_COOKIE, startSsoFlow } from './login-state.ts';
import { ssoCallbackUrl } from './sso-urls.ts';
import { idpClientOf } from './idp.service.ts';
import { startSamlSignIn } from './saml-start.ts';
import { MAX_ORG_NAME } from './sso-request.ts';

/** A start writes a row and may cost a discovery request: it spends extra points of the per-IP bucket. */
const START_EXTRA_POINTS = 2;
const MAX_REDIRECT = 2048;
const MAX_STATE = 1024;
const MAX_LOGIN_HINT = 320;
const MAX_SCOPES = 32;
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/; // RFC 6749 section 3.3 scope-token, bounded

type Checked = { ok: true; redirectUri: string; appState: string; loginHint?: string; scope: string[] } | { ok: false; message: string };

function checkRequest(deps: Deps, query: Readonly<Record<string, unknown>>): Checked {
  const redirectUri = signInParameter(query, 'redirect_uri') ?? signInParameter(query, 'redirectURL');
  if (!redirectUri) return { ok: false, message: 'The application did not say where to return (redirect_uri).' };
  if (redirectUri.length > MAX_REDIRECT || !isAllowedRedirect(deps.config, redirectUri)) {
    return { ok: false, message: 'The application asked to return to an address this server does not allow.' };
  }
  const appState = signInParameter(query, 'state');
  if (!appState) return { ok: false, message: 'The application did not send a state.' };
  if (appState.length > MAX_STATE) return { ok: false, message: 'The application sent a state that is too long.' };
  const loginHint = signInParameter(query, 'login_hint');
  if (loginHint !== undefined && loginHint.length > MAX_LOGIN_HINT) return { ok: false, message: 'The login hint is too long.' };
  const scopeText = signInParameter(query, 'scope');
  const scope = scopeText ? [...new Set(scopeText.split(/\s+/).filter(Boolean))] : [...DEFAULT_SCOPE];
  if (scope.length > MAX_SCOPES || !scope.every((s) => SCOPE_TOKEN.test(s))) return { ok: false, message: 'The application asked for a scope that is not valid.' };
  return { ok: true, redirectUri, appState, loginHint, scope };
}

export const ssoStartEndpoint = defineEndpoint({
  name: 'org_sso_start',
  methods: ['GET'],
  path: '/sso/:org/start',
  csrf: 'origin',
  // The query as parsed: a repeated parameter is a list, which reads as absent.
  body: 'form',
  errors: 'html',
  refusalPage: signInRefusalPage,
  async handler(request, ctx) {
    const refused = await spendSignInAllowance(ctx.deps, request.ip, START_EXTRA_POINTS);
    if (refused) return refused;
    const { deps, em } = ctx;
    const orgName = request.params.org!;
    const org = orgName.length <= MAX_ORG_NAME ? await findOrganization(em, { name: orgName }) : null;
    const connection = org?.enabled ? await findConnection(em, { orgId: org.id }) : null;
    // An organization with both kinds of connection signs in through OIDC while that one is enabled, else
    // through SAML: one start address per organization (discovery's sso_url) and one predictable rule.
    const saml = org?.enabled && !connection?.enabled ? await findSamlConnection(em, { orgId: org.id }) : null;
    if (!org || !(connection?.enabled || saml?.enabled)) return organizationSignInUnavailable();
    const checked = checkRequest(deps, request.body);
    if (!checked.ok) return signInPage(400, 'This sign-in request cannot be used', [checked.message]);
    if (!connection?.enabled) return startSamlSignIn(ctx, request.cookies, org, saml!, checked);
    const started = await startSsoFlow(deps, request.cookies[SSO_BINDING_COOKIE], {
      orgId: org.id,
      connectionId: connection.id,
      issuer: connection.issuer,
      redirectUri: checked.redirectUri,
      appState: checked.appState,
      scope: checked.scope,
    });
    const idp = idpClientOf(deps);
    let location: string;
    try {
      location = await idp.authorizeUrl(idpSettingsOf(deps, connection), {
        redirectUri: ssoCallbackUrl(deps.config),
        state: started.state,
        codeChallenge: started.codeChallenge,
        nonce: started.nonce,
        loginHint: checked.loginHint,
      });
    } catch (err) {
      ctx.log.warn({ orgId: org.id, err: (err as Error).message }, 'organization sign-in: IdP discovery failed');
      return signInPage(502, 'Sign-in is unavailable', [`${org.displayName}'s sign-in service could not be reached. Try again later.`]);
    }
    ctx.effects.setCookie(started.bindingCookie);
    return signInRedirect(location);
  },
});
