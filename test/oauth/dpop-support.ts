/**
 * Helpers of the DPoP tests (RFC 9449): a client's key pair with its JWK SHA-256 thumbprint (RFC 7638), and
 * DPoP proofs made with it (section 4.2), honest or broken in one way a test names.
 */
import { randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { accessTokenHash } from '../../server/modules/tokens/index.ts';

/** The test servers' --url: every htu is built from it, whatever port they listen on. */
export const ISSUER = 'http://127.0.0.1:8080';
export const TOKEN_URL = `${ISSUER}/oauth/token`;
export const USERINFO_URL = `${ISSUER}/userinfo`;

export interface DpopKey {
  alg: string;
  privateKey: CryptoKey;
  jwk: JWK;
  /** RFC 7638 SHA-256 thumbprint, base64url. */
  jkt: string;
}

export async function dpopKey(alg = 'ES256'): Promise<DpopKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { alg, privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
}

export interface ProofClaims {
  htm?: string;
  htu?: string;
  /** Seconds since the epoch; now by default. */
  iat?: number;
  jti?: string;
  /** The access token whose hash goes in ath. */
  accessToken?: string;
  /** ath as given, instead of the hash of accessToken. */
  ath?: string;
  nonce?: string;
}

/** A DPoP proof signed with `key`; `header` overrides or adds header members (typ, jwk). */
export function dpopProof(key: DpopKey, claims: ProofClaims = {}, header: Record<string, unknown> = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    htm: claims.htm ?? 'POST',
    htu: claims.htu ?? TOKEN_URL,
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
    jti: claims.jti ?? randomUUID(),
  };
  if (claims.accessToken !== undefined) payload.ath = accessTokenHash(claims.accessToken);
  if (claims.ath !== undefined) payload.ath = claims.ath;
  if (claims.nonce !== undefined) payload.nonce = claims.nonce;
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...header }).sign(key.privateKey);
}

/** An unsigned proof (alg none, RFC 7519 section 6.1): header and payload, and an empty signature. */
export function unsignedProof(key: DpopKey, claims: ProofClaims = {}): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const payload = { htm: claims.htm ?? 'POST', htu: claims.htu ?? TOKEN_URL, iat: Math.floor(Date.now() / 1000), jti: randomUUID() };
  return `${part({ alg: 'none', typ: 'dpop+jwt', jwk: key.jwk })}.${part(payload)}.`;
}

/** A proof MAC'd with HS256 and a symmetric jwk in its header. */
export function symmetricProof(claims: ProofClaims = {}): Promise<string> {
  const secret = new TextEncoder().encode('a-shared-secret-of-thirty-two-bytes!');
  const jwk = { kty: 'oct', k: Buffer.from(secret).toString('base64url') };
  return new SignJWT({ htm: claims.htm ?? 'POST', htu: claims.htu ?? TOKEN_URL, iat: Math.floor(Date.now() / 1000), jti: randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk })
    .sign(secret);
}

/** A proof whose header jwk carries the private key too (RFC 9449 section 4.2 forbids it). */
export async function proofWithPrivateKey(key: DpopKey, claims: ProofClaims = {}): Promise<string> {
  const privateJwk = await exportJWK(key.privateKey);
  return dpopProof(key, claims, { jwk: privateJwk });
}
