/**
 * Every --jwt-type family signs tokens that verify: with the published JWKS (jose createLocalJWKSet) for
 * RSA, ECDSA and EdDSA, with the shared secret for HMAC; the header names alg and kid; at_hash binds the ID
 * token to its access token; a forged or tampered token is refused.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { createUser, handlerContext, login } from './support.ts';
import { validateToken } from '../../server/modules/tokens/index.ts';

const pem = (key: KeyObject) => key.export({ format: 'pem', type: 'pkcs8' }).toString();
const ISSUER = 'http://127.0.0.1:8080';

const CASES: { alg: string; flags: () => string[]; digest: string }[] = [
  { alg: 'HS256', flags: () => ['--jwt-type', 'HS256', '--jwt-secret', 'hs256-secret'.repeat(8)], digest: 'sha256' },
  { alg: 'HS384', flags: () => ['--jwt-type', 'HS384', '--jwt-secret', 'hs384-secret'.repeat(8)], digest: 'sha384' },
  { alg: 'HS512', flags: () => ['--jwt-type', 'HS512', '--jwt-secret', 'hs512-secret'.repeat(8)], digest: 'sha512' },
  {
    alg: 'RS256',
    flags: () => ['--jwt-type', 'RS256', '--jwt-private-key', pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey), '--encryption-key', 'enc'],
    digest: 'sha256',
  },
  {
    alg: 'ES256',
    flags: () => ['--jwt-type', 'ES256', '--jwt-private-key', pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey), '--encryption-key', 'enc'],
    digest: 'sha256',
  },
  {
    alg: 'ES384',
    flags: () => ['--jwt-type', 'ES384', '--jwt-private-key', pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey), '--encryption-key', 'enc'],
    digest: 'sha384',
  },
  {
    alg: 'EdDSA',
    flags: () => ['--jwt-type', 'EdDSA', '--jwt-private-key', pem(generateKeyPairSync('ed25519').privateKey), '--encryption-key', 'enc'],
    digest: 'sha512',
  },
];

for (const { alg, flags, digest } of CASES) {
  describe(`tokens signed with ${alg}`, () => {
    let server: TestServer;
    let tokens: { access_token: string; id_token: string; refresh_token?: string };
    let jwks: JSONWebKeySet;

    before(async () => {
      server = await startServer(flags());
      const user = await createUser(server.app);
      tokens = (await login(server.app, user, { scope: ['openid', 'email', 'offline_access'] })).tokens;
      jwks = (await (await fetch(`${server.baseUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
    });
    after(() => server.close());

    test('the header names the algorithm and the key id', () => {
      for (const token of [tokens.access_token, tokens.id_token, tokens.refresh_token!]) {
        const header = decodeProtectedHeader(token);
        assert.equal(header.alg, alg);
        assert.equal(header.kid, server.app.deps.keys.kid);
      }
    });

    test('every token verifies against the published keys', async () => {
      const options = { issuer: ISSUER, audience: CLIENT_ID, algorithms: [alg] };
      for (const [token, type] of [[tokens.access_token, 'access_token'], [tokens.id_token, 'id_token'], [tokens.refresh_token!, 'refresh_token']]) {
        const { payload } = alg.startsWith('HS')
          ? await jwtVerify(token!, server.app.deps.keys.verifyKey, options)
          : await jwtVerify(token!, createLocalJWKSet(jwks), options);
        assert.equal(payload.token_type, type);
      }
      if (alg.startsWith('HS')) assert.deepEqual(jwks.keys, [], 'an HMAC secret is never published');
      else {
        assert.equal(jwks.keys.length, 1);
        assert.equal(jwks.keys[0]!.kid, server.app.deps.keys.kid);
        assert.equal(jwks.keys[0]!.alg, alg);
        assert.equal((jwks.keys[0] as Record<string, unknown>).d, undefined, 'no private part in the JWKS');
      }
    });

    test(`at_hash is the left half of the ${digest} of the access token`, async () => {
      const { payload } = await jwtVerify(tokens.id_token, server.app.deps.keys.verifyKey);
      const full = createHash(digest).update(tokens.access_token, 'ascii').digest();
      assert.equal(payload.at_hash, full.subarray(0, full.length / 2).toString('base64url'));
    });

    test('validateToken accepts each token only as its own type', async () => {
      const ctx = handlerContext(server.app, server.app.deps.storage.fork());
      assert.equal((await validateToken(ctx, tokens.access_token, 'access_token')).token_type, 'access_token');
      assert.equal((await validateToken(ctx, tokens.id_token, 'id_token')).token_type, 'id_token');
      assert.equal((await validateToken(ctx, tokens.refresh_token!, 'refresh_token')).token_type, 'refresh_token');
      await assert.rejects(validateToken(ctx, tokens.id_token, 'access_token'), { kind: 'unauthenticated' });
      await assert.rejects(validateToken(ctx, tokens.access_token, 'refresh_token'), { kind: 'unauthenticated' });
    });

    test('a tampered or foreign token is refused', async () => {
      const ctx = handlerContext(server.app, server.app.deps.storage.fork());
      const [h, p, sig] = tokens.access_token.split('.');
      const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
      const forgedPayload = Buffer.from(JSON.stringify({ ...payload, roles: ['admin'] })).toString('base64url');
      await assert.rejects(validateToken(ctx, `${h}.${forgedPayload}.${sig}`, 'access_token'), { kind: 'unauthenticated', message: 'invalid token' });
      // Signed with another key under our kid: the signature check, not the kid, decides.
      const other = alg.startsWith('HS') ? new TextEncoder().encode('another-secret') : generateKeyFor(alg);
      const foreign = await new SignJWT(payload).setProtectedHeader({ alg, kid: server.app.deps.keys.kid }).sign(other);
      await assert.rejects(validateToken(ctx, foreign, 'access_token'), { kind: 'unauthenticated' });
      // alg none and a different algorithm are refused outright.
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
      await assert.rejects(validateToken(ctx, unsigned, 'access_token'), { kind: 'unauthenticated' });
      await assert.rejects(validateToken(ctx, 'not-a-jwt', 'access_token'), { kind: 'unauthenticated' });
    });
  });
}

function generateKeyFor(alg: string): KeyObject {
  if (alg.startsWith('RS')) return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  if (alg === 'ES256') return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  if (alg === 'ES384') return generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
  return generateKeyPairSync('ed25519').privateKey;
}
