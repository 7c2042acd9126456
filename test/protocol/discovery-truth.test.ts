/**
 * The discovery documents list only what answers (OpenID Connect Discovery
 * 1.0 section 3, RFC 8414 section 2): every advertised URL is served (no 404), every endpoint of ENDPOINTS
 * that is not advertised is not served either, the values that belong to the authorization endpoint appear
 * only with it, each advertised grant type is accepted by /oauth/token, and
 * /.well-known/oauth-authorization-server carries the same content at both RFC 8414 section 3 locations.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { authorizationServerMetadata, ENDPOINTS } from '../../server/modules/oauth/discovery-metadata.ts';

const ISSUER = 'https://id.example.test/base';
type Document = Record<string, unknown>;

/** Fields whose value is a URL of this server (RFC 8414 section 2: *_endpoint, jwks_uri). */
function advertisedUrls(doc: Document): Array<[string, string]> {
  return Object.entries(doc)
    .filter(([field]) => field.endsWith('_endpoint') || field.endsWith('_uri'))
    .map(([field, value]) => [field, value as string]);
}

describe('discovery lists only what answers', () => {
  let server: TestServer;
  let openid: Document;
  let oauth: Document;
  const local = (url: string) => {
    assert.ok(url.startsWith(`${ISSUER}/`), `${url} is under the issuer`);
    return server.baseUrl + url.slice(ISSUER.length);
  };

  before(async () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    server = await startServer(['--url', ISSUER, '--jwt-type', 'ES256', '--jwt-private-key', key, '--encryption-key', 'enc-key-for-tests']);
    const get = async (path: string) => {
      const res = await fetch(server.baseUrl + path, { headers: { host: 'evil.example' } });
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      return (await res.json()) as Document;
    };
    openid = await get('/.well-known/openid-configuration');
    oauth = await get('/.well-known/oauth-authorization-server');
  });
  after(() => server.close());

  test('every advertised URL answers: none is a 404', async () => {
    for (const doc of [openid, oauth]) {
      const urls = advertisedUrls(doc);
      for (const field of ['jwks_uri', 'revocation_endpoint', 'token_endpoint']) assert.ok(urls.some(([name]) => name === field), field);
      for (const [field, url] of urls) {
        for (const method of ['GET', 'POST']) {
          const res = await fetch(local(url), { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: method === 'POST' ? '' : undefined });
          await res.arrayBuffer();
          assert.notEqual(res.status, 404, `${field} ${method} ${url}`);
        }
      }
    }
  });

  test('an endpoint that is not advertised is not served, and authorization values come only with /authorize', async () => {
    for (const { field, method, path } of ENDPOINTS) {
      if (openid[field] !== undefined) continue;
      const res = await fetch(server.baseUrl + path, { method, headers: { origin: server.baseUrl } });
      await res.arrayBuffer();
      assert.equal(res.status, 404, `${path} is not advertised, so it must not be served`);
      assert.equal(oauth[field], undefined, `oauth-authorization-server advertises ${field}`);
    }
    for (const doc of [openid, oauth]) {
      if (doc.authorization_endpoint === undefined) {
        assert.deepEqual(doc.response_types_supported, [], 'no response type without an authorization endpoint');
        assert.equal(doc.response_modes_supported, undefined);
        assert.equal(doc.code_challenge_methods_supported, undefined);
      } else {
        assert.deepEqual(doc.code_challenge_methods_supported, ['S256'], 'PKCE plain is never offered');
      }
      assert.ok(!JSON.stringify(doc).includes('evil.example'), 'nothing comes from the Host header');
    }
    assert.ok(!(openid.claims_supported as string[]).includes('c_hash'), 'c_hash is never issued');
  });

  test('each advertised grant type is accepted by /oauth/token; the others are unsupported_grant_type', async () => {
    const token = async (grantType: string) => {
      const res = await fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: grantType, client_id: CLIENT_ID }).toString(),
      });
      return ((await res.json()) as { error?: string }).error;
    };
    const advertised = openid.grant_types_supported as string[];
    assert.ok(advertised.includes('refresh_token'));
    for (const grantType of advertised) assert.notEqual(await token(grantType), 'unsupported_grant_type', grantType);
    const candidates = ['authorization_code', 'client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer', 'password', 'implicit'];
    for (const grantType of candidates.filter((g) => !advertised.includes(g))) {
      assert.equal(await token(grantType), 'unsupported_grant_type', `${grantType} is not advertised, so it must be refused`);
    }
  });

  test('the signing algorithm is --jwt-type, with its key in the JWKS', async () => {
    assert.deepEqual(openid.id_token_signing_alg_values_supported, ['ES256']);
    const jwks = (await (await fetch(local(openid.jwks_uri as string))).json()) as { keys: Array<Record<string, unknown>> };
    assert.deepEqual(jwks.keys.map((key) => [key.kty, key.crv, key.alg]), [['EC', 'P-256', 'ES256']]);
  });

  test('oauth-authorization-server is the same content, also at the RFC 8414 path-inserted location', async () => {
    assert.equal(oauth.issuer, ISSUER);
    for (const [field, value] of Object.entries(oauth)) assert.deepEqual(openid[field], value, field);
    const inserted = await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server/base`);
    assert.equal(inserted.status, 200);
    assert.deepEqual(await inserted.json(), oauth);
  });

  test('an endpoint whose route is missing is not advertised', () => {
    const withoutRevoke = authorizationServerMetadata(server.app.deps, (method, path) => !(method === 'POST' && path === '/oauth/revoke'));
    assert.equal(withoutRevoke.revocation_endpoint, undefined);
    assert.equal(withoutRevoke.revocation_endpoint_auth_methods_supported, undefined);
    assert.equal(withoutRevoke.token_endpoint, `${ISSUER}/oauth/token`);
    const nothing = authorizationServerMetadata(server.app.deps, () => false);
    assert.deepEqual(nothing.grant_types_supported, [], 'no grant type without a token endpoint');
  });
});

describe('the RFC 8414 path-inserted location', () => {
  test('is not registered for an issuer path that would make a parameter route', async () => {
    const server = await startServer(['--url', 'https://id.example.test/:tenant']);
    try {
      const res = await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server/anything`);
      await res.arrayBuffer();
      assert.equal(res.status, 404, 'a parameter route would answer for any path');
      assert.equal((await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).status, 200);
    } finally {
      await server.close();
    }
  });
});
