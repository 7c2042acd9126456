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
 * the browser's own page carries. POST /logout is therefore exempt from the Origin rule: the relying party's
 * form post comes from its own origin and proves itself by the hint.
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
import { jwtVerify } from 'jose';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { constantTimeEqual, hmacSha256Hex } from '../../kernel/crypto.ts';
import { clearedSessionCookies, presentedSession } from '../../kernel/cookies.ts';
import { textProblem } from '../../ops/input-guard.ts';
import { defineEndpoint, type HtmlRefusal, type MessagePage } from '../../ops/endpoint.ts';
import { isAllowedRedirect } from '../accounts/index.ts';
import { getClient, postLogoutRedirectUrisOf } from '../clients/index.ts';
import { ABSOLUTE_SESSION_SECONDS, endSession, issuerOf, validateSessionToken, type Claims } from '../tokens/index.ts';
import type { SessionRow } from '../sessions/index.ts';
import { logoutConfirmation, signedOutPage } from './logout-pages.ts';

/** Parameters of section 2 (and the specification's redirect_uri), with the confirmation page's own field. */
const PARAMS = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'redirect_uri', 'state', 'confirmation'] as const;
type LogoutParams = Partial<Record<(typeof PARAMS)[number], string>>;
/** An ID token with this server's claims is a few kilobytes; anything else has a URL's length at most. */
const MAX_LENGTH: Record<(typeof PARAMS)[number], number> = {
  id_token_hint: 16384, client_id: 64, post_logout_redirect_uri: 2048, redirect_uri: 2048, state: 1024, confirmation: 128,
};

/** Domain separation for the confirmation value, keyed by the raw session cookie (never stored anywhere). */
const CONFIRMATION_PURPOSE = 'portcullis logout confirmation v1';

/** A refusal shown as the 400 page of refusalPage, its message the reason. */
function badRequest(reason: string): AppError {
  return new AppError('invalid_argument', reason);
}

/**
 * The page of each refusal (a browser lands here): a refused parameter names itself, a request that could not
 * be read says so, anything unexpected names the request id (the detail in the log only).
 */
function logoutRefusalPage(refusal: HtmlRefusal): MessagePage {
  if (refusal.status >= 500) {
    return { status: 500, title: 'Sign-out failed', heading: 'Something went wrong while signing out', paragraphs: [`Try again. Request id ${refusal.requestId}.`] };
  }
  if (refusal.reason !== undefined) {
    return { title: 'Sign-out request not valid', heading: 'This sign-out request cannot be used', paragraphs: [refusal.reason] };
  }
  return { title: 'Sign-out failed', heading: 'This sign-out request cannot be used', paragraphs: ['The request could not be read.'] };
}

/** The parameters of the request, or why they are refused (repeated, not text, too long, control characters). */
function readParams(source: Readonly<Record<string, unknown>>): LogoutParams | string {
  const params: LogoutParams = {};
  for (const name of PARAMS) {
    const value = source[name];
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

export const logoutEndpoint = defineEndpoint({
  name: 'logout',
  methods: ['GET', 'POST'],
  path: '/logout',
  csrf: { exempt: 'a session ends only with an id_token_hint of its user or the confirmation bound to its cookie' },
  body: 'form',
  errors: 'html',
  refusalPage: logoutRefusalPage,
  async handler(request, ctx) {
    const { deps } = ctx;
    const params = readParams(request.body);
    if (typeof params === 'string') throw badRequest(params);
    let hint: Claims | undefined;
    if (params.id_token_hint !== undefined) {
      hint = await verifiedHint(deps, params.id_token_hint);
      if (!hint) throw badRequest('The id_token_hint is not an ID token issued by this server.');
    }
    const hintClient = hint ? clientOfHint(hint) : undefined;
    if (params.client_id !== undefined && hintClient !== undefined && params.client_id !== hintClient) {
      throw badRequest('The client_id does not match the id_token_hint.');
    }
    const clientId = params.client_id ?? hintClient;
    const requested = params.post_logout_redirect_uri ?? params.redirect_uri;
    const target = requested !== undefined && (await targetAllowed(deps, clientId, requested)) ? requested : undefined;

    const cookie = presentedSession(ctx.credentials.cookies);
    let session: SessionRow | undefined;
    if (cookie) session = await validateSessionToken(ctx, cookie).then((found) => found.session, () => undefined);
    if (session && cookie) {
      const expected = confirmationFor(cookie);
      const hintedUser = hint !== undefined && hint.sub === session.userId;
      const confirmed = request.method === 'POST' && params.confirmation !== undefined && constantTimeEqual(params.confirmation, expected);
      if (!hintedUser && !confirmed) {
        return logoutConfirmation(deps, { confirmation: expected, clientId, target, state: params.state });
      }
      const endedSession = session;
      await deps.storage.fork().transactional((em) => endSession(ctx, em, endedSession.id));
    } else if (cookie) {
      // A dead or unknown cookie: nothing to end, but the browser should not keep presenting it.
      for (const cleared of clearedSessionCookies(deps.config)) ctx.effects.setCookie(cleared);
    }
    if (target !== undefined) {
      // The /logout URL may hold the ID token: it must not travel to the relying party as a Referer.
      return {
        kind: 'redirect', location: withState(target, params.state), status: 303,
        headers: { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
      };
    }
    return signedOutPage({ redirectRefused: requested !== undefined });
  },
});
