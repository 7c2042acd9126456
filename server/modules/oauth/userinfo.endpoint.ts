/**
 * GET and POST /userinfo (docs/api-overview.md#http-endpoints-outside-v1; OpenID Connect Core 1.0 section 5.3): the claims about the
 * user an access token speaks for, by the token's scope (section 5.4). The token comes as a bearer token in
 * the Authorization header (RFC 6750 section 2.1), or with POST as `access_token` in the body (section 2.2);
 * never in the query (section 2.3 is a MAY with known leaks into logs and Referer), never by two methods at
 * once (section 2). It must be live as validate_jwt_token sees it: signature, issuer, audience, expiry,
 * token type, its stored record not revoked, its user active (modules/tokens checkIssuedToken). Tokens of the
 * instance client and of every registered client are taken (modules/tokens/audience.ts ANY_CLIENT): this is
 * where a relying party reads the claims the user granted it.
 *
 * Errors are RFC 6750 section 3: 401 with `WWW-Authenticate: Bearer` and error="invalid_token", or without an
 * error code when no token was presented at all (section 3.1); 403 insufficient_scope for an access token
 * granted without `openid` (OpenID Connect Core section 5.3: the UserInfo Endpoint serves tokens of an OpenID
 * request); 400 invalid_request for two token methods. The JSON body carries the same error.
 *
 * CORS applies as on every route (cors.ts, from the one policy hook): any origin under `--allowed-origins *`
 * may read the answer, since the credential is the bearer token the page holds, not an ambient cookie.
 * POST /userinfo is exempt from the Origin rule for the same reason.
 */
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import { OAuthError } from '../../kernel/oauth-error.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { defineEndpoint, type EndpointRequest } from '../../ops/endpoint.ts';
import {
  ANY_CLIENT, BindingRefusal, checkIssuedToken, currentRolesOf, issuerOf, requireProofOfPossession, type IssuedToken, claimsForScope, scopeList,
} from '../tokens/index.ts';
import { stringField } from './oauth-body.ts';
import { dpopAuthorization, dpopChallenge, dpopRefusal } from './dpop/resource-challenge.ts';
import { presentedProof } from './dpop/token-request-proof.ts';

const USERINFO_PATH = '/userinfo';

type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/** RFC 6750 section 3: auth-param values are quoted strings; keep them to printable ASCII without quotes. */
function quoted(text: string): string {
  return `"${text.replace(/[^\x20-\x7e]|["\\]/g, '')}"`;
}

/** An RFC 6750 section 3 refusal with its `WWW-Authenticate: Bearer` challenge; the JSON body carries the same error. */
function bearerError(config: Config, status: number, error?: BearerError, description?: string, scope?: string): OAuthError {
  const params = [`realm=${quoted(issuerOf(config))}`];
  if (error) params.push(`error=${quoted(error)}`);
  if (description) params.push(`error_description=${quoted(description)}`);
  if (scope) params.push(`scope=${quoted(scope)}`);
  // Without a token the challenge names no error (section 3.1), and so does the body; the DPoP challenge
  // says a DPoP-bound token is taken too (RFC 9449 section 7.1).
  if (!error) return new OAuthError(status, undefined, 'an access token is required', `Bearer ${params.join(', ')}, ${dpopChallenge()}`);
  return new OAuthError(status, error, description ?? error, `Bearer ${params.join(', ')}`);
}

/** The presented token and its scheme, or which RFC 6750 section 2 rule the request breaks. */
function presentedToken(request: EndpointRequest, ctx: HandlerContext): { token?: string; asDpop?: boolean; twoMethods?: true } {
  const fromDpop = dpopAuthorization(request);
  const fromHeader = ctx.credentials.bearer ?? fromDpop;
  const fromBody = request.method === 'POST' ? stringField(request.body, 'access_token') : undefined;
  if (fromHeader && fromBody) return { twoMethods: true };
  return { token: fromHeader ?? fromBody, asDpop: fromDpop !== undefined };
}

/**
 * RFC 9449 section 7: a DPoP-bound token comes with the DPoP scheme and a proof for this request (htm, htu
 * from --url, ath of the token), made with its key and spent once; a bound token sent as Bearer, and an
 * unbound one sent as DPoP, are invalid_token. Refusals carry the DPoP challenge.
 */
async function requireBinding(request: EndpointRequest, ctx: HandlerContext, token: string, issued: IssuedToken, asDpop: boolean): Promise<void> {
  let proof: string | undefined;
  try {
    proof = presentedProof(request);
  } catch (err) {
    if (err instanceof OAuthError) throw dpopRefusal('invalid_dpop_proof', err.message);
    throw err;
  }
  try {
    await requireProofOfPossession(ctx.deps, token, issued.claims, { proof, method: request.method, uri: `${issuerOf(ctx.deps.config)}${USERINFO_PATH}` }, asDpop);
  } catch (err) {
    if (err instanceof BindingRefusal) throw dpopRefusal(err.about === 'token' ? 'invalid_token' : 'invalid_dpop_proof', err.message);
    throw err;
  }
}

/**
 * The UserInfo claims: sub always, then the standard claims the token's scope grants (OpenID Connect Core
 * section 5.4; modules/tokens/scope-claims.ts, the rule the ID token of a registered client follows too).
 * The roles the user still holds go under --jwt-role-claim, as in the ID token (docs/tokens.md),
 * whatever the scope: they are this server's authorization data, and the relying party reading them here must
 * not see a role removed since the token was signed.
 */
export function userinfoClaims(issued: IssuedToken, roleClaim: string): Record<string, unknown> {
  const { user } = issued;
  const claims: Record<string, unknown> = { sub: user.id, ...claimsForScope(user, scopeList(issued.claims.scope)) };
  claims[roleClaim] = [...currentRolesOf(issued, roleClaim)];
  return claims;
}

/** Both methods of OpenID Connect Core section 5.3.1 ("MUST support the use of the HTTP GET and HTTP POST methods"). */
export const userinfoEndpoint = defineEndpoint({
  name: 'userinfo',
  methods: ['GET', 'POST'],
  path: USERINFO_PATH,
  csrf: { exempt: 'the credential is the bearer token the page holds, not an ambient cookie' },
  body: 'oauth',
  errors: 'oauth',
  async handler(request, ctx) {
    const { config } = ctx.deps;
    const presented = presentedToken(request, ctx);
    if (presented.twoMethods) throw bearerError(config, 400, 'invalid_request', 'the access token was sent by more than one method');
    if (!presented.token) throw bearerError(config, 401);
    let issued: IssuedToken;
    try {
      issued = await checkIssuedToken(ctx, presented.token, 'access_token', ANY_CLIENT);
    } catch (err) {
      if (err instanceof AppError && err.kind === 'unauthenticated') {
        throw presented.asDpop ? dpopRefusal('invalid_token', err.message) : bearerError(config, 401, 'invalid_token', err.message);
      }
      throw err;
    }
    await requireBinding(request, ctx, presented.token, issued, presented.asDpop === true);
    if (!scopeList(issued.claims.scope).includes('openid')) {
      throw bearerError(config, 403, 'insufficient_scope', 'the access token was not granted the openid scope', 'openid');
    }
    return { kind: 'json', body: userinfoClaims(issued, config.jwtRoleClaim) };
  },
});
