/**
 * Verification of a DPoP proof JWT (RFC 9449 section 4.3), the same for the token endpoint and for every
 * place a DPoP-bound token is presented (/userinfo, validate_jwt_token). A proof passes when:
 * - it is one compact JWS (section 4.3 items 1 and 2), not longer than MAX_PROOF_LENGTH;
 * - its header has typ dpop+jwt, an asymmetric alg of DPOP_SIGNING_ALGORITHMS (never none or HS*), and a
 *   jwk that is a public key only (items 4 to 7; section 4.2: "MUST NOT contain a private key");
 * - the signature verifies with that jwk;
 * - jti, htm, htu and iat are present (item 3); htm is the request's method and htu its URI, compared
 *   without query and fragment after syntax-based normalisation (items 8 and 9; RFC 3986 section 6.2.2);
 * - iat is within DPOP_PROOF_WINDOW_SECONDS of now, either way (item 11, section 11.1);
 * - with an access token, ath is base64url(SHA-256(token)) (item 12, section 4.2).
 * The caller spends the jti once (proof-replay.ts; section 11.1). The key's identity is its JWK SHA-256
 * thumbprint (RFC 7638), the jkt a bound token carries in cnf (section 6.1).
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from 'jose';
import { AppError } from '../../../kernel/errors.ts';

/** dpop_signing_alg_values_supported (section 5.1): asymmetric algorithms only. */
export const DPOP_SIGNING_ALGORITHMS: readonly string[] = [
  'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512',
];
/** How far iat may be from now, either way (section 11.1: "a relatively brief period of time"). */
export const DPOP_PROOF_WINDOW_SECONDS = 60;
/** Longer than any honest proof (an RSA-4096 jwk and the claims are under 2 KB). */
export const MAX_PROOF_LENGTH = 8192;
const MAX_JTI_LENGTH = 256;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** JWK members of private or symmetric keys (RFC 7518 sections 6.2.2, 6.3.2 and 6.4; RFC 8037 section 2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** A proof that does not pass; the message says which rule, never anything about a key. */
export class DpopProofError extends AppError {
  constructor(message: string) {
    super('unauthenticated', message);
    this.name = 'DpopProofError';
  }
}

export interface ProofExpectations {
  /** The HTTP method of the request the proof came with. */
  readonly method: string;
  /** The URI of that request (the server's own, built from --url, or the resource server's). */
  readonly uri: string;
  /** The access token presented with the proof, whose hash ath must be (section 4.3 item 12). */
  readonly accessToken?: string;
  readonly now: Date;
}

export interface VerifiedProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's public key. */
  readonly jkt: string;
  readonly jti: string;
  readonly iat: number;
}

/** base64url(SHA-256(ASCII(token))): the ath of a proof made for this access token (section 4.2). */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token, 'ascii').digest('base64url');
}

/**
 * The URI as htu compares it (section 4.3 item 9): scheme and host lower case, default port dropped, dot
 * segments removed, query and fragment ignored. Undefined when it is not an absolute http(s) URI.
 */
export function normalisedHtu(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function publicJwkOf(header: Record<string, unknown>): JWK {
  const jwk = header.jwk;
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw new DpopProofError('the DPoP proof header needs a jwk (the public key)');
  if (PRIVATE_MEMBERS.some((member) => member in jwk)) throw new DpopProofError('the DPoP proof\'s jwk must be a public key: it carries private or symmetric key material');
  return jwk as JWK;
}

function checkHeader(proof: string): JWK {
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(proof) as Record<string, unknown>;
  } catch {
    throw new DpopProofError('the DPoP proof\'s header cannot be read');
  }
  if (header.typ !== 'dpop+jwt') throw new DpopProofError('the DPoP proof\'s typ must be dpop+jwt');
  if (typeof header.alg !== 'string' || !DPOP_SIGNING_ALGORITHMS.includes(header.alg)) {
    throw new DpopProofError(`the DPoP proof must be signed with one of ${DPOP_SIGNING_ALGORITHMS.join(', ')}; none and HS* are refused`);
  }
  return publicJwkOf(header);
}

async function verifiedPayload(proof: string, now: Date): Promise<Record<string, unknown>> {
  try {
    const { payload } = await jwtVerify(proof, EmbeddedJWK, { algorithms: [...DPOP_SIGNING_ALGORITHMS], typ: 'dpop+jwt', currentDate: now });
    return payload as Record<string, unknown>;
  } catch {
    throw new DpopProofError('the DPoP proof\'s signature does not verify with its jwk');
  }
}

function checkClaims(payload: Record<string, unknown>, expected: ProofExpectations): { jti: string; iat: number } {
  const { jti, htm, htu, iat, ath } = payload;
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) throw new DpopProofError(`the DPoP proof needs a jti of 1 to ${MAX_JTI_LENGTH} characters`);
  if (typeof htm !== 'string' || htm !== expected.method) throw new DpopProofError(`the DPoP proof's htm must be ${expected.method}`);
  const wanted = normalisedHtu(expected.uri);
  if (typeof htu !== 'string' || wanted === undefined || normalisedHtu(htu) !== wanted) throw new DpopProofError(`the DPoP proof's htu must be ${wanted ?? 'the request URI'}`);
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new DpopProofError('the DPoP proof needs a numeric iat');
  const seconds = expected.now.getTime() / 1000;
  if (Math.abs(seconds - iat) > DPOP_PROOF_WINDOW_SECONDS) {
    throw new DpopProofError(`the DPoP proof's iat is more than ${DPOP_PROOF_WINDOW_SECONDS} seconds from the server's time: make a fresh proof`);
  }
  if (expected.accessToken !== undefined && ath !== accessTokenHash(expected.accessToken)) {
    throw new DpopProofError('the DPoP proof\'s ath is not the hash of the presented access token');
  }
  return { jti, iat };
}

/** The verified proof's key thumbprint and jti; throws DpopProofError. The caller spends the jti. */
export async function verifyDpopProof(proof: string, expected: ProofExpectations): Promise<VerifiedProof> {
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) throw new DpopProofError('the DPoP header must be one DPoP proof JWT');
  const jwk = checkHeader(proof);
  const payload = await verifiedPayload(proof, expected.now);
  const { jti, iat } = checkClaims(payload, expected);
  return { jkt: await calculateJwkThumbprint(jwk, 'sha256'), jti, iat };
}
