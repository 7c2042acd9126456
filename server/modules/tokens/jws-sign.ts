/**
 * JWS Compact Serialization (RFC 7515 section 7.1) of the server's tokens with node:crypto, synchronously.
 *
 * jose signs through WebCrypto, whose every signature is a job queued on libuv's thread pool and answered
 * through promises: the pool is where argon2 hashes run (passwords/hashing-pool.ts), so each signature
 * woke a pool thread beside the two hashing ones and came back through several event-loop turns, about
 * 0.5 ms of main-thread time per token. An HMAC or a signature of a few hundred bytes costs microseconds
 * when made in place.
 *
 * The output is what jose's SignJWT produced with setProtectedHeader({ alg, kid, typ: 'JWT' }): the same
 * header bytes (JSON.stringify of that object, in that order), the claims as JSON.stringify writes them,
 * and the signature of RFC 7518 section 3 for the algorithm: HMAC (3.2); RSASSA-PKCS1-v1_5 (3.3); ECDSA with
 * the R || S octet string of fixed width (3.4), converted from node's DER (ecdsa-signature.ts); Ed25519
 * (RFC 8037 section 3.1, no prehash). Tests verify every algorithm's output with jose.
 */
import { createHmac, sign, type KeyObject } from 'node:crypto';
import type { SigningKeys } from '../../kernel/signing-keys.ts';
import { derToJoseSignature } from './ecdsa-signature.ts';

interface Signer {
  /** base64url of the protected header, the same for every token of these keys. */
  readonly encodedHeader: string;
  /** The signature over the ASCII signing input (header.payload), base64url. */
  sign(signingInput: string): string;
}

/** Digest of each algorithm family member (RFC 7518 sections 3.1 and 3.4: ES512 is P-521 with SHA-512). */
function digestOf(alg: string): 'sha256' | 'sha384' | 'sha512' {
  if (alg.endsWith('256')) return 'sha256';
  if (alg.endsWith('384')) return 'sha384';
  if (alg.endsWith('512')) return 'sha512';
  throw new Error(`no digest for JWS algorithm ${alg}`);
}

/** Octets of R and of S for each ECDSA algorithm (RFC 7518 section 3.4: P-256, P-384, P-521). */
const EC_SIZES = { ES256: 32, ES384: 48, ES512: 66 } as const;

function asymmetricKey(key: KeyObject | Uint8Array, alg: string): KeyObject {
  if (key instanceof Uint8Array) throw new Error(`a ${alg} signing key must be a KeyObject (signing-keys.ts)`);
  return key;
}

function signerFor(keys: SigningKeys): Signer {
  const { alg } = keys;
  const encodedHeader = Buffer.from(JSON.stringify({ alg, kid: keys.kid, typ: 'JWT' })).toString('base64url');
  if (alg === 'HS256' || alg === 'HS384' || alg === 'HS512') {
    const digest = digestOf(alg);
    const secret = keys.signKey;
    return { encodedHeader, sign: (input) => createHmac(digest, secret).update(input, 'ascii').digest('base64url') };
  }
  if (alg === 'RS256' || alg === 'RS384' || alg === 'RS512') {
    const digest = digestOf(alg);
    const key = asymmetricKey(keys.signKey, alg);
    // node's RSA default padding is PKCS#1 v1.5, the RSASSA-PKCS1-v1_5 of RS* (RFC 7518 section 3.3).
    return { encodedHeader, sign: (input) => sign(digest, Buffer.from(input, 'ascii'), key).toString('base64url') };
  }
  if (alg === 'ES256' || alg === 'ES384' || alg === 'ES512') {
    const digest = digestOf(alg);
    const key = asymmetricKey(keys.signKey, alg);
    const size = EC_SIZES[alg];
    // DER converted here rather than node's dsaEncoding option: half the cost (ecdsa-signature.ts).
    return { encodedHeader, sign: (input) => derToJoseSignature(sign(digest, Buffer.from(input, 'ascii'), key), size).toString('base64url') };
  }
  if (alg === 'EdDSA') {
    const key = asymmetricKey(keys.signKey, alg);
    return { encodedHeader, sign: (input) => sign(null, Buffer.from(input, 'ascii'), key).toString('base64url') };
  }
  throw new Error(`JWS algorithm ${alg} is not supported`);
}

/** One signer per key set: the header is encoded once, the key and digest chosen once. */
const signers = new WeakMap<SigningKeys, Signer>();

/** The time claims jose refuses to sign when they are numbers but not finite (JSON would write null). */
const TIME_CLAIMS = ['iat', 'nbf', 'exp'] as const;

export function signCompactJwt(keys: SigningKeys, claims: Record<string, unknown>): string {
  let signer = signers.get(keys);
  if (!signer) {
    signer = signerFor(keys);
    signers.set(keys, signer);
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw new TypeError('JWT Claims Set MUST be an object');
  for (const claim of TIME_CLAIMS) {
    const value = claims[claim];
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`"${claim}" claim must be a finite number`);
  }
  const signingInput = `${signer.encodedHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signingInput}.${signer.sign(signingInput)}`;
}
