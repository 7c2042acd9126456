/**
 * Claim sets of the three tokens (docs/tokens.md). Every token carries the core claims iss (= --url),
 * aud (the instance client id), sub, iat, exp, nonce, token_type, plus a random jti so that two tokens
 * issued in the same second never share a hash in token_records.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../../config/flags.ts';
import { randomToken } from '../../kernel/crypto.ts';
import { issuerOf, type Claims, type TokenType } from './jwt.ts';
import { ACCESS_TOKEN_SECONDS, ID_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from './lifetimes.ts';

/** Claims a custom access-token script may never set (docs/tokens.md), plus the ones this server relies on. */
export const RESERVED_CLAIMS: ReadonlySet<string> = new Set([
  'sub', 'iss', 'aud', 'exp', 'iat', 'token_type', 'roles', 'allowed_roles', 'scope', 'nonce', 'login_method',
  'at_hash', 'c_hash', 'auth_time', 'amr', 'acr',
  // Not in the reference list, but overriding them would break validation or refresh families.
  'jti', 'nbf', 'family_id', 'azp', 'client_id',
  // Organization claims of an SSO session (org-claims.ts): a script must not make a token speak for an organization.
  'org_id', 'org_name', 'org_roles',
  // RFC 8693 section 4.1: who acts for the subject. Only a token exchange (oauth/token-exchange) may say so; the FGA
  // agent rule reads it (modules/fga/subject.ts).
  'act',
  // RFC 9449 section 6.1: the DPoP key a token is bound to. Only a proof at the token endpoint binds a token.
  'cnf',
]);

/** What one login grants; the same for every token of the session. */
export interface Grant {
  userId: string;
  /** Roles the session was opened with. */
  roles: string[];
  /** Every role the user holds. */
  allowedRoles: string[];
  scope: string[];
  loginMethod: string;
  nonce: string;
  /** When the user authenticated (the original login, carried across session refreshes). */
  authTime: Date;
  /** The login's absolute end (lifetimes.ts): no token's exp goes past it. */
  notAfter?: Date;
  /**
   * The registered client the tokens are issued to (an /authorize or token-endpoint grant); absent for the
   * instance client. It becomes aud and azp (OpenID Connect Core section 2: the ID token's aud holds the
   * client_id of the relying party) and client_id of the access token (RFC 9068 section 2.2).
   */
  clientId?: string;
  /**
   * The resource server the access token is for (RFC 8707 section 2, a resource indicator allowed to the
   * client): its aud names that resource first, then the client (which this server's own acceptors and
   * introspection check, audience.ts); the refresh token keeps it as `resource`, so refreshed access tokens
   * are for the same resource.
   */
  resource?: string;
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function coreClaims(config: Config, grant: Grant, now: Date, lifetimeSeconds: number, tokenType: TokenType): Claims {
  const iat = unixSeconds(now);
  const exp = iat + lifetimeSeconds;
  return {
    iss: issuerOf(config),
    aud: grant.clientId ?? config.clientId ?? '',
    ...(grant.clientId ? { azp: grant.clientId } : {}),
    sub: grant.userId,
    iat,
    exp: grant.notAfter ? Math.min(exp, unixSeconds(grant.notAfter)) : exp,
    // OpenID Connect Core 3.1.3.7 / 3.2.2.11: a relying party that sent no nonce must find none; an empty
    // string would be a nonce claim it did not ask for (strict clients refuse it).
    ...(grant.nonce ? { nonce: grant.nonce } : {}),
    jti: randomToken(16),
    token_type: tokenType,
  };
}

/**
 * OpenID Connect amr values (RFC 8176 section 2) from how the user logged in: `pwd` for passwords only;
 * `otp` for single-use secrets (TOTP, emailed codes, and emailed links: magic_link_login and verify_email
 * prove control of the mailbox, not knowledge of a password); a texted code adds `sms` ("confirmation using
 * SMS text message to the user at a registered number"); `hwk` for WebAuthn; `fed` for federated logins.
 */
export function amrFor(method: string): string[] {
  if (method === 'basic_auth' || method === 'mobile_basic_auth' || method === 'password') return ['pwd'];
  if (method === 'mobile_otp' || method === 'sms_otp') return ['sms', 'otp'];
  // A recovery code is a single-use secret, the nearest of RFC 8176's values being `otp`.
  if (/(^|_)(otp|totp)$/.test(method) || method === 'recovery_code' || method === 'magic_link_login' || method === 'verify_email') return ['otp'];
  if (method === 'webauthn' || method === 'passkey') return ['hwk'];
  return ['fed'];
}

/** A login method may name a second factor after a '+' (basic_auth+totp); two factors add amr `mfa`. */
function amrOf(grant: Grant): string[] {
  const steps = grant.loginMethod.split('+').filter(Boolean);
  const values = [...new Set(steps.flatMap(amrFor))];
  if (steps.length > 1) values.push('mfa');
  return values;
}

/** Authentication context class: one or two factors (OpenID Connect Core section 2, acr). */
function acrOf(amr: string[]): string {
  return amr.includes('mfa') ? 'urn:portcullis:loa:2fa' : 'urn:portcullis:loa:1fa';
}

/** Digest used for at_hash: the hash of the signing algorithm (OpenID Connect Core 3.1.3.6; SHA-512 for Ed25519). */
function hashAlgorithmOf(alg: string): string {
  if (alg === 'EdDSA' || alg.endsWith('512')) return 'sha512';
  if (alg.endsWith('384')) return 'sha384';
  return 'sha256';
}

/** at_hash: base64url of the left half of the hash of the access token's ASCII octets. */
export function atHash(alg: string, accessToken: string): string {
  const digest = createHash(hashAlgorithmOf(alg)).update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

export function accessTokenClaims(config: Config, grant: Grant, now: Date): Claims {
  const core = coreClaims(config, grant, now, ACCESS_TOKEN_SECONDS, 'access_token');
  return {
    ...core,
    ...(grant.resource ? { aud: [grant.resource, String(core.aud)] } : {}),
    ...(grant.clientId ? { client_id: grant.clientId } : {}),
    scope: grant.scope,
    roles: grant.roles,
    login_method: grant.loginMethod,
    allowed_roles: grant.allowedRoles,
  };
}

/**
 * The ID token: the claims about the user (the public User for the instance client, the claims of the granted
 * scope for a registered client: mint-tokens.ts), minus roles, which go under --jwt-role-claim, and the core
 * claims on top.
 */
export function idTokenClaims(config: Config, grant: Grant, now: Date, userClaims: Record<string, unknown>, alg: string, accessToken: string): Claims {
  const { roles: _roles, ...profile } = userClaims;
  const amr = amrOf(grant);
  return {
    ...profile,
    [config.jwtRoleClaim]: grant.roles,
    ...coreClaims(config, grant, now, ID_TOKEN_SECONDS, 'id_token'),
    login_method: grant.loginMethod,
    allowed_roles: grant.allowedRoles,
    at_hash: atHash(alg, accessToken),
    auth_time: unixSeconds(grant.authTime),
    amr,
    acr: acrOf(amr),
  };
}

export function refreshTokenClaims(config: Config, grant: Grant, now: Date, familyId: string): Claims {
  return {
    ...coreClaims(config, grant, now, REFRESH_TOKEN_SECONDS, 'refresh_token'),
    scope: grant.scope,
    roles: grant.roles,
    login_method: grant.loginMethod,
    family_id: familyId,
    ...(grant.resource ? { resource: grant.resource } : {}),
  };
}

/** The expiry instant of a signed claim set, for its token record. */
export function expiryOf(claims: Claims): Date {
  return new Date((claims.exp ?? 0) * 1000);
}
