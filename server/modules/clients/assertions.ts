/**
 * Verification of JWT assertions signed by a trusted issuer (RFC 7523 section 3), shared by private_key_jwt
 * client authentication (RFC 7523 section 2.2, OpenID Connect Core section 9) and the jwt-bearer grant
 * (RFC 7523 section 2.1). What both check: the signature by a key of the issuer's JWKS with an asymmetric
 * algorithm only (a shared-secret HS* or `none` would let anyone who knows the JWKS URL, or nobody at all, sign;
 * RFC 8725 section 3.1 "Perform Algorithm Verification"), iss, aud, exp present and not too far ahead, nbf,
 * iat not in the future, and a jti, which the caller then consumes once (assertion-replay.ts).
 * Refusals are AssertionError, whose message is safe to return to the caller: it names the failed check,
 * never a key or the issuer's configuration.
 */
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, type JWTPayload } from 'jose';
import type { Logger } from 'pino';
import { JwksUnavailableError, jwksCacheOf, type JwksCacheOwner } from './jwks-cache.ts';
import type { TrustedIssuerRow } from './trusted-issuer.entity.ts';

export const ASSERTION_ALGORITHMS: readonly string[] = [
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519',
];
/** Clock skew allowed between the issuer and this server for exp, nbf and iat. */
export const CLOCK_TOLERANCE_SECONDS = 30;
export const MAX_JTI_LENGTH = 256;

export class AssertionError extends Error {}

export interface PeekedAssertion {
  readonly payload: JWTPayload;
  readonly alg: string;
}

/**
 * The unverified header and claims, to know whom to ask for keys. Nothing read here is trusted before
 * verifyAssertion has checked the signature.
 */
export function peekAssertion(token: string): PeekedAssertion {
  if (token.length > 16 * 1024) throw new AssertionError('the assertion is too long');
  let alg: unknown;
  let payload: JWTPayload;
  try {
    alg = decodeProtectedHeader(token).alg;
    payload = decodeJwt(token);
  } catch {
    throw new AssertionError('the assertion is not a signed JWT');
  }
  if (typeof alg !== 'string' || !ASSERTION_ALGORITHMS.includes(alg)) {
    throw new AssertionError('the assertion must be signed with an asymmetric algorithm (RS*, PS*, ES* or EdDSA); HS* and none are refused');
  }
  return { payload, alg };
}

export interface AssertionExpectations {
  /** Required iss (RFC 7523 section 3 item 1). */
  readonly issuer: string;
  /** Required sub (private_key_jwt: the client_id, RFC 7523 section 3 item 2). */
  readonly subject?: string;
  /** Acceptable aud values; the assertion's aud must contain one (RFC 7523 section 3 item 3). */
  readonly audiences: readonly string[];
  /** Longest time from now to exp the assertion may claim, in seconds. */
  readonly maxLifetimeSeconds: number;
  readonly now: Date;
}

/**
 * Whatever became of the JWKS fetch (refused address, upstream status, timeout, bad document), the caller
 * hears one sentence: the grant is anonymous, and repeating the upstream's answer would make the token
 * endpoint a probe of whatever the URL reaches (OWASP SSRF Prevention Cheat Sheet, "blind" SSRF). The
 * detail goes to the log.
 */
export const KEYS_UNAVAILABLE = 'the trusted issuer\'s keys could not be obtained';

function describe(err: unknown): string {
  if (err instanceof JwksUnavailableError) return KEYS_UNAVAILABLE;
  if (err instanceof AssertionError) return err.message;
  if (err instanceof joseErrors.JWTExpired) return 'the assertion has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return 'the assertion\'s aud does not name this server\'s token endpoint or the expected audience';
    if (err.claim === 'iss') return 'the assertion\'s iss is not the expected issuer';
    if (err.claim === 'sub') return 'the assertion\'s sub is not the expected subject';
    if (err.claim === 'nbf') return 'the assertion is not yet valid (nbf)';
    if (err.claim === 'iat') return 'the assertion\'s iat is invalid';
    if (err.reason === 'missing') return `the assertion lacks the required claim ${err.claim}`;
    return `the assertion's ${err.claim} claim is invalid`;
  }
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'no key of the trusted issuer\'s JWKS matches the assertion (kid, alg)';
  if (err instanceof joseErrors.JWKSMultipleMatchingKeys) return 'several keys of the trusted issuer\'s JWKS match: the assertion must name its key with kid';
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'the assertion\'s signature does not verify';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the assertion\'s algorithm is not allowed';
  return 'the assertion is not a valid signed JWT';
}

/** Refusals that say only "not this issuer's key": another issuer of the same client may still verify. */
function isKeyMismatch(err: unknown): boolean {
  return err instanceof joseErrors.JWKSNoMatchingKey || err instanceof joseErrors.JWSSignatureVerificationFailed
    || err instanceof joseErrors.JWKSMultipleMatchingKeys || err instanceof JwksUnavailableError;
}

function checkTimesAndId(payload: JWTPayload, expect: AssertionExpectations): void {
  const nowSeconds = Math.floor(expect.now.getTime() / 1000);
  if (typeof payload.exp !== 'number') throw new AssertionError('the assertion lacks the required claim exp');
  if (payload.exp - nowSeconds > expect.maxLifetimeSeconds + CLOCK_TOLERANCE_SECONDS) {
    throw new AssertionError(`the assertion's exp is too far ahead (at most ${expect.maxLifetimeSeconds} seconds)`);
  }
  if (payload.iat !== undefined && (typeof payload.iat !== 'number' || payload.iat > nowSeconds + CLOCK_TOLERANCE_SECONDS)) {
    throw new AssertionError('the assertion\'s iat is in the future');
  }
  if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > MAX_JTI_LENGTH) {
    throw new AssertionError(`the assertion needs a jti of 1 to ${MAX_JTI_LENGTH} characters`);
  }
}

/**
 * Verifies `token` against the JWKS of each issuer in turn (a client may have several, e.g. during a key
 * move); the first that verifies wins. Answers the verified claims; throws AssertionError naming the most
 * telling refusal: a claim failure (the signature verified, so it is definitive) before a key mismatch.
 */
export async function verifyAssertion(
  owner: JwksCacheOwner & { readonly logger?: Logger }, issuers: readonly TrustedIssuerRow[], token: string, expect: AssertionExpectations,
): Promise<{ payload: JWTPayload; issuer: TrustedIssuerRow }> {
  const cache = jwksCacheOf(owner);
  let refusal: unknown;
  for (const issuer of issuers) {
    try {
      const { payload } = await cache.verify(issuer.jwksUrl, token, {
        algorithms: [...ASSERTION_ALGORITHMS],
        issuer: expect.issuer,
        ...(expect.subject !== undefined ? { subject: expect.subject } : {}),
        audience: [...expect.audiences],
        currentDate: expect.now,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'jti'],
      });
      checkTimesAndId(payload, expect);
      return { payload, issuer };
    } catch (err) {
      if (err instanceof JwksUnavailableError) owner.logger?.warn({ trustedIssuer: issuer.id, reason: err.message }, 'trusted issuer JWKS unavailable');
      if (refusal === undefined || (isKeyMismatch(refusal) && !isKeyMismatch(err))) refusal = err;
      if (!isKeyMismatch(err)) break;
    }
  }
  throw new AssertionError(refusal === undefined ? 'no active trusted issuer can verify this assertion' : describe(refusal));
}
