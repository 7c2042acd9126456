/**
 * GET and POST /logout (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints: redirect_uri; OpenID Connect RP-Initiated
 * Logout 1.0 section 2: id_token_hint, client_id, post_logout_redirect_uri, state, by GET query or POST form,
 * which the OP MUST both support). It ends the browser session of the cookie: the session row and every token
 * issued for it are revoked at once and both session cookies are cleared (modules/tokens endSession).
 *
 * Logout CSRF. A GET that ends the session would let any page sign its visitors out with an <img>. Section 2
 * has the OP ask the user "if an id_token_hint was not provided or if the supplied ID Token does not belong to
 * the current OP session": so the session ends at once only with an id_token_hint of this server whose sub is
 * the session's user (a third party cannot hold it); otherwise a confirmation page asks, and its form posts a
 * confirmation value derived from the session cookie itself (an HMAC keyed by the cookie secret), which only
 * the browser's own page carries. POST /logout is therefore exempt from the Origin rule (security.ts): the
 * relying party's form post comes from its own origin and proves itself by the hint.
 *
 * Redirects (section 3: the OP MUST NOT redirect to a post_logout_redirect_uri that is not registered; ASVS
 * 5.1.5): post_logout_redirect_uri, else redirect_uri, for the client named by client_id or by the hint's
 * azp/aud (they must agree). A registered client's own post_logout_redirect_uris (section 3.2 client
 * metadata), by exact string (RFC 9700 section 2.1): its redirect_uris are /authorize targets and are not
 * logout targets, so a logged-out page need not become a place authorization codes may be sent. The instance
 * client (--client-id) has no registration to hold a separate list: its targets stay isAllowedRedirect's
 * (--redirect-uris, the --url origin, listed --allowed-origins), the same rule as /app and the emailed links,
 * so an operator's existing --redirect-uris keep working as logout targets. Any other target is never
 * followed: the browser gets a "signed out" page on this server instead. `state` is passed back as a query
 * parameter (section 3). Bad input answers an HTML page, never JSON or a redirect.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import type { Deps } from '../../../kernel/deps.ts';
import { constantTimeEqual, hmacSha256Hex } from '../../../kernel/crypto.ts';
import { clearedSessionCookies, presentedSession } from '../../../kernel/cookies.ts';
import { textProblem } from '../../../ops/input-guard.ts';
import { isAllowedRedirect } from '../../../modules/accounts/index.ts';
import { getClient, postLogoutRedirectUrisOf } from '../../../modules/clients/index.ts';
import { ABSOLUTE_SESSION_SECONDS, endSession, issuerOf, validateSessionToken, type Claims } from '../../../modules/tokens/index.ts';
import type { SessionRow } from '../../../modules/sessions/index.ts';
import { applyEffects, buildHttpContext } from '../request-context.ts';
import { sendHtmlErrorPage } from '../ui/html-error-page.ts';
import { sendLogoutConfirmation, sendSignedOutPage } from './logout-pages.ts';

/** Parameters of section 2 (and the specification's redirect_uri), with the confirmation page's own field. */
const PARAMS = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'redirect_uri', 'state', 'confirmation'] as const;
type LogoutParams = Partial<Record<(typeof PARAMS)[number], string>>;
/** An ID token with this server's claims is a few kilobytes; anything else has a URL's length at most. */
const MAX_LENGTH: Record<(typeof PARAMS)[number], number> = {
  id_token_hint: 16384, client_id: 64, post_logout_redirect_uri: 2048, redirect_uri: 2048, state: 1024, confirmation: 128,
};

/** Domain separation for the confirmation value, keyed by the raw session cookie (never stored anywhere). */
const CONFIRMATION_PURPOSE = 'portcullis logout confirmation v1';

function badRequest(reply: FastifyReply, reason: string): FastifyReply {
  return sendHtmlErrorPage(reply, 400, { title: 'Sign-out request not valid', heading: 'This sign-out request cannot be used', paragraphs: [reason] });
}

/** The parameters of the request, or why they are refused (repeated, not text, too long, control characters). */
function readParams(request: FastifyRequest): LogoutParams | string {
  const source = (request.method === 'POST' ? request.body : request.query) ?? {};
  if (typeof source !== 'object' || Array.isArray(source)) return 'The request must be a form.';
  const params: LogoutParams = {};
  for (const name of PARAMS) {
    const value = (source as Record<string, unknown>)[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') return `The parameter ${name} must be given once, as text.`;
    if (value.length > MAX_LENGTH[name]) return `The parameter ${name} is too long.`;
    if (textProblem(value)) return `The parameter ${name} ${textProblem(value)}.`;
    params[name] = value;
  }
  return params;
}

/**
 * The hint's claims when it is an ID token this server signed (signature with --jwt-type's key, iss). Section 2
 * has the OP accept a hint whose exp has passed: a relying party logs out long after the token was minted; so
 * expiry is tolerated up to the longest a login lives (tokens/lifetimes.ts).
 */
async function verifiedHint(deps: Deps, hint: string): Promise<Claims | undefined> {
  try {
    const { payload } = await jwtVerify(hint, deps.keys.verifyKey, {
      algorithms: [deps.keys.alg],
      issuer: issuerOf(deps.config),
      currentDate: deps.clock.now(),
      clockTolerance: ABSOLUTE_SESSION_SECONDS,
      requiredClaims: ['sub', 'aud'],
    });
    return payload.token_type === 'id_token' ? (payload as Claims) : undefined;
  } catch {
    return undefined;
  }
}

/** OpenID Connect Core section 2: the client an ID token was issued to is azp, else its single aud. */
function clientOfHint(claims: Claims): string | undefined {
  if (typeof claims.azp === 'string' && claims.azp !== '') return claims.azp;
  if (typeof claims.aud === 'string') return claims.aud;
  return Array.isArray(claims.aud) && claims.aud.length === 1 ? claims.aud[0] : undefined;
}

/** Whether the browser may be sent to `target` after logout for this client (see the file comment). */
async function targetAllowed(deps: Deps, clientId: string | undefined, target: string): Promise<boolean> {
  if (clientId === undefined || constantTimeEqual(clientId, deps.config.clientId ?? '')) return isAllowedRedirect(deps.config, target);
  try {
    const client = await getClient(deps.storage.fork(), { client_id: clientId });
    return client.isActive && postLogoutRedirectUrisOf(client).includes(target);
  } catch {
    return false;
  }
}

function withState(target: string, state: string | undefined): string {
  if (state === undefined) return target;
  const url = new URL(target);
  url.searchParams.set('state', state);
  return url.toString();
}

export function confirmationFor(sessionCookie: string): string {
  return hmacSha256Hex(sessionCookie, CONFIRMATION_PURPOSE);
}

export function logoutEndpoint(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const params = readParams(request);
    if (typeof params === 'string') return badRequest(reply, params);
    let hint: Claims | undefined;
    if (params.id_token_hint !== undefined) {
      hint = await verifiedHint(deps, params.id_token_hint);
      if (!hint) return badRequest(reply, 'The id_token_hint is not an ID token issued by this server.');
    }
    const hintClient = hint ? clientOfHint(hint) : undefined;
    if (params.client_id !== undefined && hintClient !== undefined && params.client_id !== hintClient) {
      return badRequest(reply, 'The client_id does not match the id_token_hint.');
    }
    const clientId = params.client_id ?? hintClient;
    const requested = params.post_logout_redirect_uri ?? params.redirect_uri;
    const target = requested !== undefined && (await targetAllowed(deps, clientId, requested)) ? requested : undefined;

    const ctx = buildHttpContext(deps, request, 'rest');
    const cookie = presentedSession(ctx.credentials.cookies);
    let session: SessionRow | undefined;
    if (cookie) session = await validateSessionToken(ctx, cookie).then((found) => found.session, () => undefined);
    if (session && cookie) {
      const expected = confirmationFor(cookie);
      const hintedUser = hint !== undefined && hint.sub === session.userId;
      const confirmed = request.method === 'POST' && params.confirmation !== undefined && constantTimeEqual(params.confirmation, expected);
      if (!hintedUser && !confirmed) {
        return sendLogoutConfirmation(reply, deps, { confirmation: expected, clientId, target, state: params.state });
      }
      const endedSession = session;
      await deps.storage.fork().transactional((em) => endSession(ctx, em, endedSession.id));
    } else if (cookie) {
      // A dead or unknown cookie: nothing to end, but the browser should not keep presenting it.
      for (const cleared of clearedSessionCookies(deps.config)) ctx.effects.setCookie(cleared);
    }
    applyEffects(reply, ctx.effects);
    reply.header('cache-control', 'no-store');
    if (target !== undefined) {
      // The /logout URL may hold the ID token: it must not travel to the relying party as a Referer.
      reply.header('referrer-policy', 'no-referrer');
      return reply.redirect(withState(target, params.state), 303);
    }
    return sendSignedOutPage(reply, { redirectRefused: requested !== undefined });
  };
}

/**
 * The routes, in a scope of their own whose errors are HTML pages (a browser lands here): a malformed body is
 * a 400 page, anything unexpected a 500 page naming the request id, the detail in the log only.
 */
export async function registerLogoutRoutes(http: FastifyInstance, deps: Deps): Promise<void> {
  await http.register(async (scope) => {
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'logout failed unexpectedly');
      return sendHtmlErrorPage(reply, status, {
        title: 'Sign-out failed',
        heading: status === 500 ? 'Something went wrong while signing out' : 'This sign-out request cannot be used',
        paragraphs: [status === 500 ? `Try again. Request id ${String(request.id)}.` : 'The request could not be read.'],
      });
    });
    const handler = logoutEndpoint(deps);
    scope.get('/logout', handler);
    scope.post('/logout', handler);
  });
}
