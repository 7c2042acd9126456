import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { jwtVerify, SignJWT, createLocalJWKSet } from 'jose';
import { loadSigningKeys } from '../../server/modules/tokens/signing-keys.ts';
import { createSealer } from '../../server/kernel/encryption.ts';
import { parseConfig } from '../../server/config/parse.ts';

const base = ['--database-url', 'x.db', '--url', 'http://localhost:8080', '--client-id', 'a', '--client-secret', 'b', '--admin-secret', 's'];
const pem = (key: import('node:crypto').KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }).toString();

const pairs = {
  RS256: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  ES256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  ES384: generateKeyPairSync('ec', { namedCurve: 'P-384' }),
  EdDSA: generateKeyPairSync('ed25519'),
};

for (const [alg, pair] of Object.entries(pairs)) {
  test(`${alg} keys sign tokens that verify against the published JWKS`, async () => {
    const config = parseConfig([...base, '--jwt-type', alg, '--jwt-private-key', pem(pair.privateKey, 'pkcs8'), '--encryption-key', 'e']);
    const keys = await loadSigningKeys(config);
    assert.equal(keys.jwks.keys.length, 1);
    assert.equal(keys.jwks.keys[0]!.kid, keys.kid);
    assert.equal(keys.jwks.keys[0]!.d, undefined, 'the JWKS must not publish private parts');
    const token = await new SignJWT({ a: 1 }).setProtectedHeader({ alg, kid: keys.kid }).sign(keys.signKey);
    const { payload } = await jwtVerify(token, createLocalJWKSet(keys.jwks));
    assert.equal(payload.a, 1);
  });
}

test('HMAC keys publish nothing and keep a stable kid', async () => {
  const config = parseConfig([...base, '--jwt-type', 'HS512', '--jwt-secret', 'k'.repeat(64)]);
  const a = await loadSigningKeys(config);
  const b = await loadSigningKeys(config);
  assert.deepEqual(a.jwks.keys, []);
  assert.equal(a.kid, b.kid);
  const other = await loadSigningKeys(parseConfig([...base, '--jwt-type', 'HS512', '--jwt-secret', 'k2'.repeat(32)]));
  assert.notEqual(a.kid, other.kid);
});

test('a key that does not fit the algorithm is refused naming the flag', async () => {
  const ec = pem(pairs.ES256.privateKey, 'pkcs8');
  await assert.rejects(
    loadSigningKeys(parseConfig([...base, '--jwt-type', 'RS256', '--jwt-private-key', ec, '--encryption-key', 'e'])),
    /--jwt-private-key is not a RS256 key/,
  );
  await assert.rejects(
    loadSigningKeys(parseConfig([...base, '--jwt-type', 'ES384', '--jwt-private-key', ec, '--encryption-key', 'e'])),
    /--jwt-private-key is not a ES384 key/,
  );
  const otherPublic = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey, 'spki');
  await assert.rejects(
    loadSigningKeys(parseConfig([...base, '--jwt-type', 'ES256', '--jwt-private-key', ec, '--jwt-public-key', otherPublic, '--encryption-key', 'e'])),
    /--jwt-public-key does not match --jwt-private-key/,
  );
});

test('sealed values round-trip, differ each time, and fail when tampered with or under another key', () => {
  const sealer = createSealer({ encryptionKey: 'one', jwtSecret: undefined });
  const a = sealer.seal('JBSWY3DPEHPK3PXP');
  assert.notEqual(a, sealer.seal('JBSWY3DPEHPK3PXP'));
  assert.ok(!a.includes('JBSWY3DPEHPK3PXP'));
  assert.equal(sealer.open(a), 'JBSWY3DPEHPK3PXP');
  const tampered = a.slice(0, -2) + (a.endsWith('A') ? 'BB' : 'AA');
  assert.throws(() => sealer.open(tampered));
  assert.throws(() => createSealer({ encryptionKey: 'two', jwtSecret: undefined }).open(a));
  assert.throws(() => createSealer({ encryptionKey: undefined, jwtSecret: undefined }), /--encryption-key/);
});
