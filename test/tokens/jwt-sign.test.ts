/**
 * signToken (jwt.ts over jws-sign.ts) signs with node:crypto instead of jose's WebCrypto path. For every
 * --jwt-type: jose verifies the result with the published key (or the secret), the header and claims are
 * exactly what jose's SignJWT wrote, and for the deterministic algorithms (HMAC, RSASSA-PKCS1-v1_5,
 * Ed25519) the token is byte for byte jose's. verifyToken accepts it; a changed byte is refused by both.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { loadSigningKeys, type SigningKeys } from '../../server/modules/tokens/signing-keys.ts';
import { signToken, verifyToken, type Claims } from '../../server/modules/tokens/jwt.ts';
import { ANY_CLIENT } from '../../server/modules/tokens/audience.ts';
import { parseConfig } from '../../server/config/parse.ts';
import { AppError } from '../../server/kernel/errors.ts';

const ISSUER = 'http://localhost:8080';
const AUDIENCE = 'client-a';
const base = ['--database-url', 'x.db', '--url', ISSUER, '--client-id', AUDIENCE, '--client-secret', 'b', '--admin-secret', 's'];
const pem = (key: KeyObject) => key.export({ format: 'pem', type: 'pkcs8' }).toString();

/** Every --jwt-type, with the flags that give it a key; `deterministic` when one key and input give one signature. */
const ALGORITHMS: { alg: string; flags: () => string[]; deterministic: boolean; signatureBytes?: number }[] = [
  { alg: 'HS256', flags: () => ['--jwt-secret', 'hs256-secret-'.repeat(4)], deterministic: true },
  { alg: 'HS384', flags: () => ['--jwt-secret', 'hs384-secret-'.repeat(5)], deterministic: true },
  { alg: 'HS512', flags: () => ['--jwt-secret', 'hs512-secret-'.repeat(6)], deterministic: true },
  { alg: 'RS256', flags: () => ['--jwt-private-key', pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)], deterministic: true },
  { alg: 'RS384', flags: () => ['--jwt-private-key', pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)], deterministic: true },
  { alg: 'RS512', flags: () => ['--jwt-private-key', pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)], deterministic: true },
  // ECDSA signatures are R || S of fixed width (RFC 7518 section 3.4), not DER: 64, 96 and 132 octets.
  { alg: 'ES256', flags: () => ['--jwt-private-key', pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)], deterministic: false, signatureBytes: 64 },
  { alg: 'ES384', flags: () => ['--jwt-private-key', pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey)], deterministic: false, signatureBytes: 96 },
  { alg: 'ES512', flags: () => ['--jwt-private-key', pem(generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey)], deterministic: false, signatureBytes: 132 },
  { alg: 'EdDSA', flags: () => ['--jwt-private-key', pem(generateKeyPairSync('ed25519').privateKey)], deterministic: true },
];

/** Claims shaped like an ID token's: nested objects, arrays, null, non-ASCII text, a custom role claim. */
function sampleClaims(): Claims {
  const iat = Math.floor(Date.now() / 1000);
  return {
    email: 'zoë@example.com',
    given_name: 'Zoë ✓',
    picture: null,
    app_data: { nested: { list: [1, 'two', { three: true }] } },
    roles: ['user', 'admin'],
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'b9a1c6de-1b4f-4e2a-9a51-3c2f0e1d7a10',
    iat,
    exp: iat + 1800,
    nonce: 'n-0S6_WzA2Mj',
    jti: 'x7Qn2b',
    token_type: 'id_token',
    amr: ['pwd'],
  };
}

function joseSign(keys: SigningKeys, claims: Claims): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: keys.alg, kid: keys.kid, typ: 'JWT' }).sign(keys.signKey);
}

function verifyWithJose(keys: SigningKeys, token: string) {
  const options = { issuer: ISSUER, audience: AUDIENCE, algorithms: [keys.alg] };
  return keys.alg.startsWith('HS') ? jwtVerify(token, keys.verifyKey, options) : jwtVerify(token, createLocalJWKSet(keys.jwks), options);
}

/** The token with one character of its signature changed (to another base64url character). */
function tampered(token: string): string {
  const at = token.lastIndexOf('.') + 5;
  const replacement = token[at] === 'A' ? 'B' : 'A';
  return token.slice(0, at) + replacement + token.slice(at + 1);
}

for (const { alg, flags, deterministic, signatureBytes } of ALGORITHMS) {
  describe(`signToken with ${alg}`, () => {
    let keys: SigningKeys;
    let config: ReturnType<typeof parseConfig>;
    const claims = sampleClaims();

    test('jose verifies the token against the published key (or the secret) and reads the same claims', async () => {
      config = parseConfig([...base, '--jwt-type', alg, ...flags(), '--encryption-key', 'e']);
      keys = await loadSigningKeys(config);
      const token = signToken(keys, claims);
      assert.equal(typeof token, 'string', 'signing answers the token synchronously');
      const { payload, protectedHeader } = await verifyWithJose(keys, token);
      assert.deepEqual(payload, claims);
      assert.deepEqual(protectedHeader, { alg, kid: keys.kid, typ: 'JWT' });
    });

    test('header and payload segments are the bytes jose writes', async () => {
      const ours = signToken(keys, claims).split('.');
      const theirs = (await joseSign(keys, claims)).split('.');
      assert.equal(ours[0], theirs[0], 'protected header');
      assert.equal(ours[1], theirs[1], 'payload');
      assert.deepEqual(decodeProtectedHeader(ours.join('.')), decodeProtectedHeader(theirs.join('.')));
      if (deterministic) assert.equal(ours[2], theirs[2], 'the same signature as jose for a deterministic algorithm');
      if (signatureBytes) assert.equal(Buffer.from(ours[2]!, 'base64url').length, signatureBytes);
    });

    test('verifyToken accepts it, and a changed signature is refused by jose and by verifyToken', async () => {
      const deps = { config, keys, clock: { now: () => new Date() } };
      const token = signToken(keys, claims);
      const verified = await verifyToken(deps, token, 'id_token', ANY_CLIENT);
      assert.equal(verified.sub, claims.sub);
      const forged = tampered(token);
      await assert.rejects(verifyWithJose(keys, forged), joseErrors.JWSSignatureVerificationFailed);
      await assert.rejects(verifyToken(deps, forged, 'id_token', ANY_CLIENT), (err: unknown) => err instanceof AppError && err.kind === 'unauthenticated');
    });
  });
}

test('claims that are not an object, or a time claim that is not a finite number, are refused as jose refuses them', async () => {
  const keys = await loadSigningKeys(parseConfig([...base, '--jwt-type', 'HS256', '--jwt-secret', 'k'.repeat(32)]));
  for (const claim of ['iat', 'nbf', 'exp']) {
    assert.throws(() => signToken(keys, { ...sampleClaims(), [claim]: Number.POSITIVE_INFINITY }), /must be a finite number/);
    assert.throws(() => signToken(keys, { ...sampleClaims(), [claim]: Number.NaN }), /must be a finite number/);
  }
  assert.throws(() => signToken(keys, [] as unknown as Claims), /MUST be an object/);
});

test('keys of another server (another secret) do not verify its tokens', async () => {
  const ours = await loadSigningKeys(parseConfig([...base, '--jwt-type', 'HS256', '--jwt-secret', 'a'.repeat(32)]));
  const theirs = await loadSigningKeys(parseConfig([...base, '--jwt-type', 'HS256', '--jwt-secret', 'b'.repeat(32)]));
  await assert.rejects(verifyWithJose(theirs, signToken(ours, sampleClaims())), joseErrors.JWSSignatureVerificationFailed);
});
