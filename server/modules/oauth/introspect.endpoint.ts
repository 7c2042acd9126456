/**
 * POST /oauth/introspect (RFC 7662; issue item 3): a protected resource asks whether a token is live.
 *
 * - The caller must authenticate as a client (RFC 7662 section 2.1; docs/security-lessons.md: an
 *   open introspection endpoint is a token-scanning oracle). A public caller (client_id alone, or nothing)
 *   is invalid_client with 401.
 * - The answer is {active: false} and nothing else for anything that is not a live access or refresh
 *   token of this server: malformed, forged, expired, revoked, its user deactivated, an ID token, a
 *   client_credentials token whose client is deactivated or deleted, and a token issued to another client
 *   (RFC 7662 section 2.2 lets the server answer inactive for tokens the caller may not see; answering
 *   the same as for a dead token means a client learns nothing about other clients' tokens). A registered
 *   client sees the tokens issued to it (azp / client_id); the instance client sees the instance tokens.
 * - A live token answers active, scope (space-separated, RFC 7662 section 2.2), client_id, sub, exp, iat,
 *   iss, aud, jti, token_type as the token_type_hint vocabulary of RFC 7009 section 2.1 (access_token or
 *   refresh_token: the kind of token, which the caller cannot tell from the opaque string), and username
 *   (the user's email or phone number) for a user's token, and act for an exchanged token (RFC 8693 section
 *   4.1: the current actor and the chain before it, oauth/token-exchange); a DPoP-bound token adds cnf, and an
 *   access token so bound says token_type DPoP (RFC 9449 section 6.2, bindingOf below).
 *
 * A user's token is checked as validate_jwt_token checks it (checkIssuedToken: signature, claims, its record
 * live, its user active); a client_credentials token, which is not recorded (grants/client-credentials-grant.ts),
 * by signature and exp and its client being active (isActiveClientId, at most 5 s stale across instances:
 * client-auth-cache.ts). Exempt from the CSRF rule: back-ends call it without Origin.
 */
import { decodeJwt } from 'jose';
import { AppError } from '../../kernel/errors.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { OAuthError } from '../../kernel/oauth-error.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { defineEndpoint } from '../../ops/endpoint.ts';
import { isActiveClientId } from '../clients/index.ts';
import {
  boundKeyOf, checkIssuedToken, confirmationOf, issuedTo, tokenTypeFor, verifyToken, type Audience, type Claims, type TokenType,
} from '../tokens/index.ts';
import { requireClient, type AuthenticatedClient } from './client-auth.ts';
import { isClientCredentialsToken } from './client-credentials-token.ts';
import { stringField } from './oauth-body.ts';

const INTROSPECTION_PATH = '/oauth/introspect';
/** Longer than any token this server signs (a few hundred bytes to a few KB); longer ones are not read. */
const MAX_TOKEN_LENGTH = 16_384;
const INACTIVE = Object.freeze({ active: false });
const INTROSPECTABLE: readonly TokenType[] = ['access_token', 'refresh_token'];

type Introspection = Record<string, unknown> & { active: boolean };

/** The token_type claim of a token's payload, read before verification only to pick which check to make. */
function claimedType(token: string): TokenType | undefined {
  try {
    const type = decodeJwt(token).token_type;
    return INTROSPECTABLE.find((known) => known === type);
  } catch {
    return undefined;
  }
}

/**
 * The tokens the caller may see: those issued to it (RFC 7662 section 2.2). A token of another client fails
 * the audience check like a dead token, so the answer is the same {active: false}.
 */
function audienceOfCaller(caller: AuthenticatedClient): Audience {
  return issuedTo(caller.registered ? caller.clientId : undefined);
}

function scopeText(scope: unknown): string | undefined {
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === 'string').join(' ');
  return typeof scope === 'string' ? scope : undefined;
}

/**
 * RFC 9449 section 6.2: a DPoP-bound token is introspected with its cnf (the key's thumbprint) and, for an
 * access token, token_type DPoP, so the resource server checks the proof against it itself (docs/dpop.md).
 */
function bindingOf(claims: Claims, type: TokenType): { cnf?: { jkt: string }; token_type?: string } {
  const jkt = boundKeyOf(claims);
  if (!jkt) return {};
  return { ...confirmationOf(jkt), ...(type === 'access_token' ? { token_type: tokenTypeFor(jkt) } : {}) };
}

function answerFor(claims: Claims, type: TokenType, clientId: string, username?: string): Introspection {
  const answer: Introspection = {
    active: true,
    scope: scopeText(claims.scope),
    client_id: clientId,
    sub: claims.sub,
    exp: claims.exp,
    iat: claims.iat,
    iss: claims.iss,
    aud: claims.aud,
    jti: claims.jti,
    token_type: type,
    username,
    act: claims.act,
    ...bindingOf(claims, type),
  };
  for (const key of Object.keys(answer)) if (answer[key] === undefined) delete answer[key];
  return answer;
}

async function introspect(ctx: HandlerContext, caller: AuthenticatedClient, token: string): Promise<Introspection> {
  const { deps } = ctx;
  if (token.length > MAX_TOKEN_LENGTH) return INACTIVE;
  const type = claimedType(token);
  if (!type) return INACTIVE;
  try {
    // The memo of verified claims (state-cache) spares the signature check of a token introspected before.
    const audience = audienceOfCaller(caller);
    const claims = await verifyToken(deps, token, type, audience, sha256Hex(token));
    if (isClientCredentialsToken(claims)) {
      const clientId = String(claims.client_id);
      return (await isActiveClientId(deps.storage, clientId, deps.clock.now())) ? answerFor(claims, type, clientId) : INACTIVE;
    }
    const issued = await checkIssuedToken(ctx, token, type, audience);
    const username = issued.user.email ?? issued.user.phoneNumber ?? undefined;
    return answerFor(issued.claims, type, caller.clientId, username);
  } catch (err) {
    if (err instanceof AppError && err.kind === 'unauthenticated') return INACTIVE;
    throw err;
  }
}

export const introspectEndpoint = defineEndpoint({
  name: 'oauth_introspect',
  methods: ['POST'],
  path: INTROSPECTION_PATH,
  refuseOtherMethods: true,
  csrf: { exempt: 'called by resource servers without Origin; the caller authenticates as a client' },
  body: 'oauth',
  errors: 'oauth',
  async handler(request, ctx) {
    const caller = await requireClient(ctx.deps, request, request.body);
    // A challenge even without an Authorization header: the caller must authenticate (RFC 7662 section 2.1).
    if (caller.method === 'none') throw OAuthError.invalidClient('introspection requires client authentication', true);
    const token = stringField(request.body, 'token');
    if (!token) throw OAuthError.invalidRequest('token is required');
    return { kind: 'json', body: await introspect(ctx, caller, token) };
  },
});
