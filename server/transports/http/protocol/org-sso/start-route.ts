/**
 * GET /sso/<organization>/start?redirect_uri=&state=&login_hint=&scope= (the sso_url of org_discovery):
 * checks what the application asks for, keeps it server-side with a fresh state, PKCE verifier and nonce
 * (org-sso/login-state.ts), and sends the browser to the organization IdP's authorization endpoint, or to
 * its SAML IdP with an AuthnRequest when SAML is the organization's enabled connection (saml-start.ts). An
 * organization that is unknown, disabled, or without an enabled connection gets one and the same page (the
 * answer does not tell which). A target that is not allowed is refused with a page, never redirected to
 * (OWASP ASVS 5.1.5).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { AppError, HTTP_ERROR_MAP } from '../../../../kernel/errors.ts';
import { ResponseEffects, parseCookieHeader } from '../../../../kernel/effects.ts';
import { clientKey } from '../../../../modules/limits/index.ts';
import { isAllowedRedirect } from '../../../../modules/accounts/index.ts';
import { DEFAULT_SCOPE } from '../../../../modules/tokens/index.ts';
import { findOrganization } from '../../../../modules/organizations/index.ts';
import { SSO_BINDING_COOKIE, findConnection, findSamlConnection, idpSettingsOf, ssoCallbackUrl, startSsoFlow, type IdpClient } from '../../../../modules/org-sso/index.ts';
import { applyEffects } from '../../request-context.ts';
import { sendSocialPage } from '../social/social-pages.ts';
import { startSamlSignIn } from './saml-start.ts';

/** A start writes a row and may cost a discovery request: it spends extra points of the per-IP bucket. */
const START_EXTRA_POINTS = 2;
const MAX_REDIRECT = 2048;
const MAX_STATE = 1024;
const MAX_LOGIN_HINT = 320;
const MAX_SCOPES = 32;
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/; // RFC 6749 section 3.3 scope-token, bounded

export function queryText(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export const unavailablePage = (reply: FastifyReply) =>
  sendSocialPage(reply, 404, 'Organization sign-in unavailable', ['This organization does not offer single sign-on here. Sign in another way, or ask its administrator.']);

/** Spends `points` of the caller's per-IP allowance; answers the refusal page when spent. */
export async function spendOrRefuse(deps: Deps, request: FastifyRequest, reply: FastifyReply, points: number): Promise<FastifyReply | undefined> {
  try {
    await deps.limits.consume('ip', clientKey(request.ip), points);
    return undefined;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
    return sendSocialPage(reply, HTTP_ERROR_MAP[err.kind].status, 'Too many sign-in attempts', ['Wait a moment and try again.']);
  }
}

type Checked = { ok: true; redirectUri: string; appState: string; loginHint?: string; scope: string[] } | { ok: false; message: string };

function checkRequest(deps: Deps, query: Record<string, unknown>): Checked {
  const redirectUri = queryText(query, 'redirect_uri') ?? queryText(query, 'redirectURL');
  if (!redirectUri) return { ok: false, message: 'The application did not say where to return (redirect_uri).' };
  if (redirectUri.length > MAX_REDIRECT || !isAllowedRedirect(deps.config, redirectUri)) {
    return { ok: false, message: 'The application asked to return to an address this server does not allow.' };
  }
  const appState = queryText(query, 'state');
  if (!appState) return { ok: false, message: 'The application did not send a state.' };
  if (appState.length > MAX_STATE) return { ok: false, message: 'The application sent a state that is too long.' };
  const loginHint = queryText(query, 'login_hint');
  if (loginHint !== undefined && loginHint.length > MAX_LOGIN_HINT) return { ok: false, message: 'The login hint is too long.' };
  const scopeText = queryText(query, 'scope');
  const scope = scopeText ? [...new Set(scopeText.split(/\s+/).filter(Boolean))] : [...DEFAULT_SCOPE];
  if (scope.length > MAX_SCOPES || !scope.every((s) => SCOPE_TOKEN.test(s))) return { ok: false, message: 'The application asked for a scope that is not valid.' };
  return { ok: true, redirectUri, appState, loginHint, scope };
}

export function startRoute(deps: Deps, idp: IdpClient) {
  return async (request: FastifyRequest<{ Params: { org: string } }>, reply: FastifyReply) => {
    const refused = await spendOrRefuse(deps, request, reply, START_EXTRA_POINTS);
    if (refused) return refused;
    const em = deps.storage.fork();
    const org = request.params.org.length <= 63 ? await findOrganization(em, { name: request.params.org }) : null;
    const connection = org?.enabled ? await findConnection(em, { orgId: org.id }) : null;
    // An organization with both kinds of connection signs in through OIDC while that one is enabled, else
    // through SAML: one start address per organization (discovery's sso_url) and one predictable rule.
    const saml = org?.enabled && !connection?.enabled ? await findSamlConnection(em, { orgId: org.id }) : null;
    if (!org || !(connection?.enabled || saml?.enabled)) return unavailablePage(reply);
    const checked = checkRequest(deps, (request.query ?? {}) as Record<string, unknown>);
    if (!checked.ok) return sendSocialPage(reply, 400, 'This sign-in request cannot be used', [checked.message]);
    if (!connection?.enabled) return startSamlSignIn(deps, request, reply, org, saml!, checked);
    const started = await startSsoFlow(deps, parseCookieHeader(request.headers.cookie)[SSO_BINDING_COOKIE], {
      orgId: org.id,
      connectionId: connection.id,
      issuer: connection.issuer,
      redirectUri: checked.redirectUri,
      appState: checked.appState,
      scope: checked.scope,
    });
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
      request.log.warn({ orgId: org.id, err: (err as Error).message }, 'organization sign-in: IdP discovery failed');
      return sendSocialPage(reply, 502, 'Sign-in is unavailable', [`${org.displayName}'s sign-in service could not be reached. Try again later.`]);
    }
    const effects = new ResponseEffects();
    effects.setCookie(started.bindingCookie);
    applyEffects(reply, effects);
    return reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').redirect(location, 302);
  };
}
