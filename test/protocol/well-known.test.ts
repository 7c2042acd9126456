/**
 * GET /.well-known/openid-configuration and /.well-known/jwks.json (docs/api-overview.md#http-endpoints-outside-v1; OpenID Connect
 * Discovery 1.0): built from --url whatever the Host header says, the signing algorithm of --jwt-type, no
 * key for HMAC, and for an asymmetric key a JWKS that verifies the server's ID tokens.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { createUser, login } from '../tokens/support.ts';
import { GRANTS } from '../../server/modules/oauth/index.ts';

const URL_FLAG = 'https://id.example.test/base/';
const ISSUER = 'https://id.example.test/base';

describe('well-known documents with RS256', () => {
  let server: TestServer;
  before(async () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    server = await startServer(['--url', URL_FLAG, '--jwt-type', 'RS256', '--jwt-private-key', key, '--encryption-key', 'enc', '--jwt-role-claim', 'groups']);
  });
  after(() => server.close());

  test('openid-configuration names the issuer, the endpoints under --url and the supported values', async () => {
    const res = await fetch(`${server.baseUrl}/.well-known/openid-configuration`, { headers: { host: 'evil.example' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const doc = (await res.json()) as Record<string, unknown>;
    assert.equal(doc.issuer, ISSUER);
    assert.equal(doc.token_endpoint, `${ISSUER}/oauth/token`);
    assert.equal(doc.jwks_uri, `${ISSUER}/.well-known/jwks.json`);
    assert.equal(doc.revocation_endpoint, `${ISSUER}/oauth/revoke`);
    assert.equal(doc.userinfo_endpoint, `${ISSUER}/userinfo`);
    assert.equal(doc.end_session_endpoint, `${ISSUER}/logout`);
    assert.equal(doc.authorization_endpoint, `${ISSUER}/authorize`);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256'], 'PKCE plain is never offered (RFC 7636 section 4.2)');
    // Exactly the grants /oauth/token serves (modules/oauth/grants/index.ts), whichever have landed.
    assert.deepEqual(doc.grant_types_supported, GRANTS.map((grant) => grant.grantType));
    for (const served of ['refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer']) assert.ok(doc.grant_types_supported.includes(served), served);
    assert.deepEqual(doc.id_token_signing_alg_values_supported, ['RS256']);
    assert.deepEqual(doc.scopes_supported, ['openid', 'email', 'profile', 'offline_access']);
    assert.deepEqual(doc.subject_types_supported, ['public']);
    assert.deepEqual(doc.response_types_supported, ['code', 'token']);
    assert.ok((doc.token_endpoint_auth_methods_supported as string[]).includes('client_secret_basic'));
    const claims = doc.claims_supported as string[];
    for (const claim of ['sub', 'iss', 'aud', 'email', 'email_verified', 'given_name', 'groups', 'at_hash', 'amr']) {
      assert.ok(claims.includes(claim), claim);
    }
    assert.ok(!JSON.stringify(doc).includes('evil.example'), 'nothing comes from the Host header');
  });

  test('jwks.json publishes the public key with its kid, which verifies issued ID tokens', async () => {
    const res = await fetch(`${server.baseUrl}/.well-known/jwks.json`);
    assert.equal(res.status, 200);
    const jwks = (await res.json()) as JSONWebKeySet;
    assert.equal(jwks.keys.length, 1);
    const [key] = jwks.keys;
    assert.equal(key!.kty, 'RSA');
    assert.equal(key!.kid, server.app.deps.keys.kid);
    assert.equal(key!.use, 'sig');
    for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.equal((key as Record<string, unknown>)[secret], undefined);
    const user = await createUser(server.app);
    const { tokens } = await login(server.app, user);
    const { payload } = await jwtVerify(tokens.id_token, createLocalJWKSet(jwks), { issuer: ISSUER, audience: CLIENT_ID });
    assert.deepEqual(payload.groups, ['user']);
  });

  test('each document may be cached for five minutes, at both RFC 8414 section 3 locations, and is not marked no-cache', async () => {
    const paths = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/base', '/.well-known/jwks.json'];
    for (const path of paths) {
      const res = await fetch(server.baseUrl + path);
      await res.arrayBuffer();
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', path);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=300', path);
      assert.equal(res.headers.get('pragma'), null, path);
    }
  });
});

describe('well-known documents with HS256', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('jwks.json is an empty key set: a shared secret is never published', async () => {
    const res = await fetch(`${server.baseUrl}/.well-known/jwks.json`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { keys: [] });
  });

  test('openid-configuration names HS256 and the issuer from --url', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(doc.issuer, 'http://127.0.0.1:8080');
    assert.deepEqual(doc.id_token_signing_alg_values_supported, ['HS256']);
    assert.ok((doc.claims_supported as string[]).includes('role'));
  });
});
