/**
 * Signing and verifying the server's JWTs with the keys of --jwt-type (deps.keys, imported once at start).
 * Signing is node:crypto's synchronous HMAC and sign (jws-sign.ts), not WebCrypto; verification pins the algorithm to --jwt-type (no alg confusion), and checks iss (= --url), aud (the
 * instance client id, or the registered client named by azp: audienceOk), exp against the injected clock,
 * and the token_type claim, so an ID or refresh token is never accepted where an access token is expected;
 * and then that the caller's Audience (audience.ts) takes a token issued to that client.
 */
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../../config/flags.ts';
import type { Clock } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { TokenStateCache } from './state-cache/index.ts';
import { signCompactJwt } from './jws-sign.ts';
import { requireAudience, type Audience } from './audience.ts';

export type TokenType = 'access_token' | 'id_token' | 'refresh_token';
export const TOKEN_TYPES: readonly TokenType[] = ['access_token', 'id_token', 'refresh_token'];

const TOKEN_LABELS: Record<TokenType, string> = {
  access_token: 'an access token',
  id_token: 'an ID token',
  refresh_token: 'a refresh token',
};

export type Claims = JWTPayload & Record<string, unknown>;

/** The issuer: --url without a trailing slash, so discovery and tokens spell it the same way. */
export function issuerOf(config: Pick<Config, 'url'>): string {
  return (config.url ?? '').replace(/\/+$/, '');
}

/** A compact JWS of `claims` with the header {alg, kid, typ: 'JWT'}; synchronous (see jws-sign.ts). */
export function signToken(keys: SigningKeys, claims: Claims): string {
  return signCompactJwt(keys, claims);
}

export interface VerifyDeps {
  readonly config: Config;
  readonly keys: SigningKeys;
  readonly clock: Clock;
  /** Verified claims by token hash (state-cache/): a repeated token skips the signature check. */
  readonly tokenState?: Pick<TokenStateCache, 'verifiedClaims' | 'rememberClaims'>;
}

/**
 * The time checks jose makes (RFC 7519 sections 4.1.4 exp and 4.1.5 nbf, no leeway), for claims whose
 * signature was verified earlier: a remembered token expires on time by the injected clock.
 */
function checkTimes(claims: Claims, now: Date): void {
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= seconds) throw AppError.unauthenticated('token has expired');
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > seconds)) throw AppError.unauthenticated('invalid token');
}

/**
 * aud of a token of this server: the instance client id, or the registered client it was issued to, which
 * the server also writes into azp (claims.ts Grant.clientId). A token whose aud names neither was not issued
 * by this server's grants. Whether that client is still active is for the caller to judge.
 */
export function audienceOk(claims: Claims, instanceClientId: string): boolean {
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  if (audiences.length === 0) return false;
  if (audiences.includes(instanceClientId)) return true;
  return typeof claims.azp === 'string' && claims.azp !== '' && audiences.includes(claims.azp);
}

async function verifySignature(deps: VerifyDeps, token: string): Promise<Claims> {
  try {
    const header = decodeProtectedHeader(token);
    if (header.kid !== undefined && header.kid !== deps.keys.kid) throw AppError.unauthenticated('invalid token');
    const { payload } = await jwtVerify(token, deps.keys.verifyKey, {
      algorithms: [deps.keys.alg],
      issuer: issuerOf(deps.config),
      currentDate: deps.clock.now(),
      requiredClaims: ['sub', 'exp', 'iat', 'aud'],
    });
    if (!audienceOk(payload as Claims, deps.config.clientId ?? '')) throw AppError.unauthenticated('invalid token');
    return payload as Claims;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw AppError.unauthenticated('token has expired');
    throw AppError.unauthenticated('invalid token');
  }
}

/**
 * Verifies a token of this server for an acceptor that takes `audience` (audience.ts); throws
 * AppError('unauthenticated') with a message that reveals no key. With `tokenHash` (sha256 of the token) and a
 * claims memo, the signature, issuer and aud are checked once per token; expiry, token_type and the
 * acceptor's audience are checked on every call (the memo is shared by acceptors of different audiences).
 */
export async function verifyToken(deps: VerifyDeps, token: string, expected: TokenType, audience: Audience, tokenHash?: string): Promise<Claims> {
  if (!token) throw AppError.unauthenticated('missing token');
  const remembered = tokenHash ? rememberedClaims(deps, tokenHash, expected, audience) : undefined;
  if (remembered) return remembered;
  let claims = await verifySignature(deps, token);
  if (tokenHash && deps.tokenState) claims = deps.tokenState.rememberClaims(tokenHash, claims);
  return checkTypeAndAudience(deps, claims, expected, audience);
}

/**
 * verifyToken's answer for a token whose signature the claims memo has seen verified (by its sha256), checked
 * for expiry, token type and audience now; undefined when the memo does not hold it. Synchronous.
 */
export function rememberedClaims(deps: VerifyDeps, tokenHash: string, expected: TokenType, audience: Audience): Claims | undefined {
  const claims = deps.tokenState?.verifiedClaims(tokenHash);
  if (!claims) return undefined;
  checkTimes(claims, deps.clock.now());
  return checkTypeAndAudience(deps, claims, expected, audience);
}

function checkTypeAndAudience(deps: VerifyDeps, claims: Claims, expected: TokenType, audience: Audience): Claims {
  if (claims.token_type !== expected) throw AppError.unauthenticated(`invalid token: expected ${TOKEN_LABELS[expected]}`);
  requireAudience(audience, claims, deps.config.clientId);
  return claims;
}
