/**
 * GET and POST /authorize (docs/api-overview.md#http-endpoints-outside-v1; RFC 6749 sections 4.1 and 4.2; OpenID Connect Core
 * sections 3.1.2 and 3.2.2). The request is validated by authorization-request.ts (a request_uri stands for
 * the parameters its client pushed to /oauth/par, RFC 9126 section 4: pushedParameters below); then:
 * - no usable session (none, prompt=login, older than max_age): the browser goes to the login UI, which
 *   returns to this same request afterwards ({--url}/app?redirect_uri={--url}/authorize?<query>); with
 *   prompt=none the client hears login_required instead;
 * - a client registered with consent_required and no stored consent covering the scopes: the request waits
 *   server side and the browser goes to the consent screen (/app/consent?request=<id>); with prompt=none
 *   the client hears consent_required;
 * - otherwise the code (response_type code) or the tokens (token) go to the client in its response mode.
 * URLs are built from --url only. Every answer is no-store. What goes wrong is shown to a person as a page
 * (authorize-answers.ts), never as the OAuth JSON of the token endpoints, and never as a redirect to an
 * address that was not vetted.
 */
import { clearedSessionCookies } from '../../kernel/cookies.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { defineEndpoint, noStoreRedirect, type EndpointAnswer } from '../../ops/endpoint.ts';
import { authTimeOf } from '../sessions/index.ts';
import { issuerOf, mintTokens } from '../tokens/index.ts';
import { findAuthorizeClient } from './authorize-client.ts';
import { parseAuthorizationRequest, type AuthorizationRequest } from './authorization-request.ts';
import type { ResponseTarget } from './authorization-response.ts';
import { issueAuthorizationCode } from './authorization-codes.ts';
import { consentCovers } from './consents.ts';
import { openPendingAuthorization } from './pending-authorizations.ts';
import { withoutPrompt } from './resume-url.ts';
import { resumeAuthorizationUrl } from './pushed-resume.ts';
import { closePushedRequest, openPushedRequest } from './pushed-requests.ts';
import { authorizationAnswer, authorizeErrorPage, authorizeRefusalPage } from './authorize-answers.ts';
import { answerDeniedRequest } from './denied-request.ts';
import { browserSession, type BrowserSession } from '../sessions/index.ts';

/**
 * Whether the user must sign in (again): no session; prompt=login; a login older than max_age (OpenID
 * Connect Core section 3.1.2.1); or older than the auth_after this server set when it sent the browser to
 * sign in again.
 */
function mustSignIn(request: AuthorizationRequest, found: BrowserSession | undefined, now: Date): boolean {
  if (!found) return true;
  const authTime = authTimeOf(found.session).getTime();
  if (request.prompt.has('login')) return true;
  if (request.maxAge !== undefined && now.getTime() - authTime > request.maxAge * 1000) return true;
  return request.authAfter !== undefined && Math.floor(authTime / 1000) < request.authAfter;
}

/**
 * To the login UI, which comes back to this request. A forced re-authentication (the browser has a session)
 * clears the session cookies, so the login UI asks for credentials instead of passing the old session
 * through, and the resume URL asks for a login at or after now instead of repeating prompt=login or max_age
 * (which would send the browser round again forever).
 */
async function sendToSignIn(ctx: HandlerContext, request: AuthorizationRequest, forced: boolean, now: Date): Promise<EndpointAnswer> {
  const { config } = ctx.deps;
  let params = request.params;
  if (forced) {
    const { max_age: _maxAge, ...rest } = withoutPrompt(params, 'login');
    params = { ...rest, auth_after: String(Math.floor(now.getTime() / 1000)) };
    for (const cookie of clearedSessionCookies(config)) ctx.effects.setCookie(cookie);
  }
  const page = request.screenHint === 'signup' ? '/app/signup' : '/app';
  const resume = await resumeAuthorizationUrl(ctx.em, config, params);
  return noStoreRedirect(`${issuerOf(config)}${page}?redirect_uri=${encodeURIComponent(resume)}`);
}

async function issueResponse(ctx: HandlerContext, request: AuthorizationRequest, found: BrowserSession, now: Date) {
  const { session, user } = found;
  if (request.responseType === 'code') {
    const code = await issueAuthorizationCode(ctx.em, now, {
      clientId: request.client.clientId,
      redirectUri: request.redirectUri,
      responseMode: request.responseMode,
      codeChallenge: request.codeChallenge!,
      nonce: request.nonce,
      scope: request.scope,
      ...(request.resource ? { resource: request.resource } : {}),
      ...(request.dpopJkt ? { dpopJkt: request.dpopJkt } : {}),
      userId: user.id,
      sessionId: session.id,
      authTime: authTimeOf(session),
    });
    return { code };
  }
  // Implicit grant (RFC 6749 section 4.2.2): no refresh token.
  const tokens = await ctx.em.transactional((tx) =>
    mintTokens(ctx, tx, {
      user,
      session,
      scope: request.scope,
      nonce: request.nonce ?? '',
      familyId: null,
      ...(request.client.registered ? { clientId: request.client.clientId } : {}),
      ...(request.resource ? { resource: request.resource } : {}),
    }),
  );
  return {
    access_token: tokens.access_token,
    token_type: 'Bearer',
    expires_in: String(tokens.expires_in),
    id_token: request.scope.includes('openid') ? tokens.id_token : undefined,
    scope: request.scope.join(' '),
  };
}

const SPENT = 'This sign-in request was already used.';

type PushedParameters = { kind: 'fatal'; description: string } | { kind: 'ok'; raw: Record<string, unknown>; requestUri?: string };

/**
 * The parameters to validate: those of the query or form, or, with a request_uri (RFC 9126 section 4), the
 * ones pushed by that same client, ignoring every other parameter given beside it (the pushed request is
 * the whole request: a parameter added on the URL could widen it). A request_uri that cannot be used is
 * a page: no redirect_uri is established to answer to (RFC 6749 section 4.1.2.1).
 */
async function pushedParameters(ctx: HandlerContext, raw: Record<string, unknown>, now: Date): Promise<PushedParameters> {
  const requestUri = raw.request_uri;
  if (requestUri === undefined) return { kind: 'ok', raw };
  if (typeof requestUri !== 'string' || typeof raw.client_id !== 'string' || raw.client_id === '') {
    return { kind: 'fatal', description: 'A request_uri must come once, with the client_id of the application that pushed it.' };
  }
  const found = await openPushedRequest(ctx.em, now, requestUri, raw.client_id);
  if (!found.ok) return { kind: 'fatal', description: found.description };
  return { kind: 'ok', raw: found.row.params, requestUri };
}

export const authorizeEndpoint = defineEndpoint({
  name: 'authorize',
  methods: ['GET', 'POST'],
  path: '/authorize',
  // No HEAD: it would run the whole request and issue a code (or spend a consent) nobody reads.
  head: false,
  // POST /authorize is the form serialisation of the authorization request (OpenID Connect Core section
  // 3.1.2.1), posted by the relying party's page: it can do nothing a cross-site GET /authorize cannot.
  csrf: { exempt: 'it can do nothing a cross-site GET /authorize cannot' },
  // OpenID Connect Core section 3.1.2.1: POST carries the same parameters as the query of a GET, form-serialised.
  body: 'oauth',
  errors: 'html',
  refusalPage: authorizeRefusalPage,
  async handler(request, ctx) {
    const { config } = ctx.deps;
    const raw = request.body;
    if (raw.client_id === undefined && typeof raw.request === 'string') return answerDeniedRequest(ctx, raw.request);

    const now = ctx.deps.clock.now();
    const pushed = await pushedParameters(ctx, raw, now);
    if (pushed.kind === 'fatal') return { kind: 'page', ...authorizeErrorPage(pushed.description) };

    const parsed = await parseAuthorizationRequest({ config, raw: pushed.raw, findClient: (clientId) => findAuthorizeClient(config, ctx.em, clientId) });
    if (parsed.kind === 'fatal') return { kind: 'page', ...authorizeErrorPage(parsed.description) };
    // The answer to the client spends a pushed request (pushed-requests.ts): false when a concurrent
    // /authorize with the same request_uri spent it first, so only one answer is given.
    const spend = async (): Promise<boolean> => !pushed.requestUri || (await closePushedRequest(ctx.em, pushed.requestUri));
    const answer = async (target: ResponseTarget, fields: Record<string, string | undefined>): Promise<EndpointAnswer> =>
      (await spend()) ? authorizationAnswer(config, target, fields) : { kind: 'page', ...authorizeErrorPage(SPENT) };
    if (parsed.kind === 'error') return answer(parsed.target, { error: parsed.error, error_description: parsed.description });
    const authorization: AuthorizationRequest = pushed.requestUri
      ? { ...parsed.request, params: { ...parsed.request.params, request_uri: pushed.requestUri } }
      : parsed.request;
    const refuse = (error: string, description: string) => answer(authorization, { error, error_description: description });
    // RFC 9126 section 4: a client registered to push its requests has every other request refused.
    if (!pushed.requestUri && authorization.client.requirePushedAuthorizationRequests) {
      return refuse('invalid_request', 'this client must push its authorization requests (POST /oauth/par) and send the request_uri');
    }
    const found = await browserSession(ctx);

    if (mustSignIn(authorization, found, now)) {
      if (authorization.prompt.has('none')) return refuse('login_required', 'the user is not signed in');
      if (!config.enableLoginPage) return refuse('login_required', 'the user is not signed in and this server has no login page');
      return await sendToSignIn(ctx, authorization, found !== undefined, now);
    }
    const { user, session } = found!;

    const client = authorization.client;
    if (client.consentRequired) {
      const covered = !authorization.prompt.has('consent') && (await consentCovers(ctx.em, user.id, client.clientId, authorization.scope));
      if (!covered) {
        if (authorization.prompt.has('none')) return refuse('consent_required', 'the user has not consented to this application');
        const requestId = await openPendingAuthorization(ctx.em, now, {
          userId: user.id,
          authTime: authTimeOf(session),
          clientId: client.clientId,
          // The mode is written out, so that a refusal decided later goes back the same way.
          params: { ...authorization.params, response_mode: authorization.responseMode },
          scopes: authorization.scope,
        });
        return noStoreRedirect(`${issuerOf(config)}/app/consent?request=${encodeURIComponent(requestId)}`);
      }
    }
    if (!(await spend())) return { kind: 'page', ...authorizeErrorPage(SPENT) };
    return authorizationAnswer(config, authorization, await issueResponse(ctx, authorization, found!, now));
  },
});
