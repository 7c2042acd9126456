/**
 * Token signing keys from --jwt-type and its key flags (docs/configuration.md, docs/tokens.md). Keys are imported
 * once at start: importing a key costs more than signing with it, so never per request. A key that does not fit the algorithm is a startup
 * refusal naming the flag. Public keys are published at /.well-known/jwks.json with a thumbprint `kid`
 * (RFC 7638); nothing is published for HMAC.
 */
import { createHmac, createPrivateKey, createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import type { Config } from '../../config/flags.ts';
import { ConfigError } from '../../config/parse.ts';
import type { SigningKeys } from '../../kernel/signing-keys.ts';

export type { SigningKeys };

/** The key type and curve each asymmetric algorithm needs (RFC 7518 section 3, RFC 8037). */
const EXPECTED: Record<string, { type: string; curve?: string }> = {
  RS256: { type: 'rsa' }, RS384: { type: 'rsa' }, RS512: { type: 'rsa' },
  ES256: { type: 'ec', curve: 'prime256v1' }, ES384: { type: 'ec', curve: 'secp384r1' }, ES512: { type: 'ec', curve: 'secp521r1' },
  EdDSA: { type: 'ed25519' },
};

function checkKeyFits(alg: string, key: KeyObject, flag: string): void {
  const expected = EXPECTED[alg];
  if (!expected) throw new ConfigError(`--jwt-type ${alg} is not supported`);
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType !== expected.type || (expected.curve && curve !== expected.curve)) {
    throw new ConfigError(`${flag} is not a ${alg} key (got ${key.asymmetricKeyType}${curve ? ` ${curve}` : ''})`);
  }
  if (expected.type === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new ConfigError(`${flag} must be an RSA key of at least 2048 bits`);
  }
}

function importPem(pem: string, kind: 'private' | 'public', flag: string): KeyObject {
  try {
    return kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
  } catch {
    throw new ConfigError(`${flag} is not a readable PEM ${kind} key`);
  }
}

export async function loadSigningKeys(config: Config): Promise<SigningKeys> {
  const alg = config.jwtType;
  if (alg.startsWith('HS')) {
    // A KeyObject, not the raw bytes: jose imports raw HMAC bytes into WebCrypto on every sign and verify,
    // while a KeyObject is converted once and remembered (never re-imported per request).
    const secret = createSecretKey(new TextEncoder().encode(config.jwtSecret ?? ''));
    // The kid names the key without revealing anything usable about the secret.
    const kid = createHmac('sha256', secret).update('portcullis-kid').digest('base64url').slice(0, 16);
    return { alg, kid, signKey: secret, verifyKey: secret, jwks: { keys: [] } };
  }
  const privateKey = importPem(config.jwtPrivateKey ?? '', 'private', '--jwt-private-key');
  checkKeyFits(alg, privateKey, '--jwt-private-key');
  const publicKey = config.jwtPublicKey ? importPem(config.jwtPublicKey, 'public', '--jwt-public-key') : createPublicKey(privateKey);
  checkKeyFits(alg, publicKey, '--jwt-public-key');
  const derived = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  if (!derived.equals(publicKey.export({ format: 'der', type: 'spki' }))) {
    throw new ConfigError('--jwt-public-key does not match --jwt-private-key');
  }
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { alg, kid, signKey: privateKey, verifyKey: publicKey, jwks: { keys: [{ ...jwk, kid, alg, use: 'sig' }] } };
}
