/**
 * Signing and verifying the server's JWTs with the keys of --jwt-type (deps.keys, imported once at start).
 * Verification pins the algorithm to --jwt-type (no alg confusion), and checks iss (= --url), aud (the
 * instance client id), exp against the injected clock, and the token_type claim, so an ID or refresh token
 * is never accepted where an access token is expected.
 */
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Config } from '../../config/flags.ts';
import type { Clock } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import type { SigningKeys } from './signing-keys.ts';

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

export function signToken(keys: SigningKeys, claims: Claims): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: keys.alg, kid: keys.kid, typ: 'JWT' }).sign(keys.signKey);
}

export interface VerifyDeps {
  readonly config: Config;
  readonly keys: SigningKeys;
  readonly clock: Clock;
}

/** Verifies a token of this server; throws AppError('unauthenticated') with a message that reveals no key. */
export async function verifyToken(deps: VerifyDeps, token: string, expected: TokenType): Promise<Claims> {
  if (!token) throw AppError.unauthenticated('missing token');
  try {
    const header = decodeProtectedHeader(token);
    if (header.kid !== undefined && header.kid !== deps.keys.kid) throw AppError.unauthenticated('invalid token');
    const { payload } = await jwtVerify(token, deps.keys.verifyKey, {
      algorithms: [deps.keys.alg],
      issuer: issuerOf(deps.config),
      audience: deps.config.clientId ?? '',
      currentDate: deps.clock.now(),
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (payload.token_type !== expected) throw AppError.unauthenticated(`invalid token: expected ${TOKEN_LABELS[expected]}`);
    return payload as Claims;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw AppError.unauthenticated('token has expired');
    throw AppError.unauthenticated('invalid token');
  }
}
