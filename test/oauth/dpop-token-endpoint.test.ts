/**
 * DPoP at the token endpoint (RFC 9449 section 5), over real HTTP with client_credentials: a valid proof
 * gives token_type DPoP and an access token with cnf.jkt (section 6.1); each broken proof is 400
 * invalid_dpop_proof (section 4.3): a replayed jti, another method or URI (the Host header's, not --url's),
 * an iat out of the window, typ other than dpop+jwt, alg none, HS256 with a symmetric key, a private key
 * in the header, a signature by another key, two DPoP headers. Introspection answers cnf and token_type
 * DPoP (section 6.2); discovery lists the proof algorithms (section 5.1).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { admin, basic, oauthPost, type Registered } from './client-auth-support.ts';
import { DPOP_SIGNING_ALGORITHMS } from '../../server/modules/tokens/index.ts';
import { dpopKey, dpopProof, proofWithPrivateKey, symmetricProof, unsignedProof, ISSUER, type DpopKey } from './dpop-support.ts';

async function tokenWithProof(server: TestServer, client: Registered, proof: string | string[] | undefined) {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`,
  };
  const init: RequestInit = { method: 'POST', headers, body: 'grant_type=client_credentials' };
  if (Array.isArray(proof)) {
    const h = new Headers(headers);
    for (const value of proof) h.append('dpop', value);
    init.headers = h;
  } else if (proof !== undefined) {
    headers.dpop = proof;
  }
  const res = await fetch(`${server.baseUrl}/oauth/token`, init);
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

describe('DPoP at the token endpoint', () => {
  let server: TestServer;
  let client: Registered;
  let key: DpopKey;
  before(async () => {
    server = await startServer();
    client = await admin(server).create(['jobs:read']);
    key = await dpopKey();
  });
  after(() => server.close());

  function refusedProof(reply: { status: number; body: Record<string, any>; headers: Headers }, pattern: RegExp) {
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.error, 'invalid_dpop_proof');
    assert.match(reply.body.error_description, pattern);
    assert.equal(reply.headers.get('cache-control'), 'no-store');
  }

  test('a valid proof binds the access token to its key: token_type DPoP, cnf.jkt the key\'s thumbprint', async () => {
    const reply = await tokenWithProof(server, client, await dpopProof(key));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.token_type, 'DPoP');
    assert.deepEqual(decodeJwt(reply.body.access_token).cnf, { jkt: key.jkt });
    const plain = await tokenWithProof(server, client, undefined);
    assert.equal(plain.body.token_type, 'Bearer', 'without a proof nothing changes');
    assert.equal(decodeJwt(plain.body.access_token).cnf, undefined);
  });

  test('every key type of the allow list is taken (ES384, EdDSA, RS256, PS256)', async () => {
    for (const alg of ['ES384', 'EdDSA', 'RS256', 'PS256']) {
      const other = await dpopKey(alg);
      const reply = await tokenWithProof(server, client, await dpopProof(other));
      assert.equal(reply.status, 200, `${alg}: ${JSON.stringify(reply.body)}`);
      assert.deepEqual(decodeJwt(reply.body.access_token).cnf, { jkt: other.jkt });
    }
  });

  test('a replayed proof (the same jti) is refused the second time', async () => {
    const proof = await dpopProof(key);
    assert.equal((await tokenWithProof(server, client, proof)).status, 200);
    refusedProof(await tokenWithProof(server, client, proof), /already used/);
  });

  test('htm and htu must be this request\'s: POST and the token endpoint at --url, not at the Host header', async () => {
    refusedProof(await tokenWithProof(server, client, await dpopProof(key, { htm: 'GET' })), /htm must be POST/);
    refusedProof(await tokenWithProof(server, client, await dpopProof(key, { htu: `${server.baseUrl}/oauth/token` })), /htu must be/);
    refusedProof(await tokenWithProof(server, client, await dpopProof(key, { htu: `${ISSUER}/userinfo` })), /htu must be/);
    // Query and fragment are ignored, and the default port too (section 4.3 item 9).
    const withQuery = await tokenWithProof(server, client, await dpopProof(key, { htu: `${ISSUER}/oauth/token?x=1#y` }));
    assert.equal(withQuery.status, 200, JSON.stringify(withQuery.body));
  });

  test('an iat more than 60 seconds from now, either way, is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    refusedProof(await tokenWithProof(server, client, await dpopProof(key, { iat: now - 120 })), /iat/);
    refusedProof(await tokenWithProof(server, client, await dpopProof(key, { iat: now + 120 })), /iat/);
    assert.equal((await tokenWithProof(server, client, await dpopProof(key, { iat: now - 30 }))).status, 200);
  });

  test('alg none, HS256 with a symmetric key, a private key in the header and a wrong typ are refused', async () => {
    refusedProof(await tokenWithProof(server, client, unsignedProof(key)), /one DPoP proof JWT/);
    refusedProof(await tokenWithProof(server, client, await symmetricProof()), /none and HS\* are refused/);
    refusedProof(await tokenWithProof(server, client, await proofWithPrivateKey(key)), /must be a public key/);
    refusedProof(await tokenWithProof(server, client, await dpopProof(key, {}, { typ: 'JWT' })), /typ must be dpop\+jwt/);
  });

  test('a proof signed by another key than its jwk, a malformed header or two DPoP headers are refused', async () => {
    const other = await dpopKey();
    refusedProof(await tokenWithProof(server, client, await dpopProof(other, {}, { jwk: key.jwk })), /signature does not verify/);
    refusedProof(await tokenWithProof(server, client, 'not-a-jwt'), /one DPoP proof JWT/);
    refusedProof(await tokenWithProof(server, client, [await dpopProof(key), await dpopProof(key)]), /exactly one DPoP header/);
    const noJti = await dpopProof(key, { jti: '' });
    refusedProof(await tokenWithProof(server, client, noJti), /jti/);
  });

  test('introspection answers cnf and token_type DPoP for a bound access token, and neither for a bearer one', async () => {
    const bound = await tokenWithProof(server, client, await dpopProof(key));
    const answer = await oauthPost(server, '/oauth/introspect', { token: bound.body.access_token }, basic(client));
    assert.equal(answer.body.active, true);
    assert.equal(answer.body.token_type, 'DPoP');
    assert.deepEqual(answer.body.cnf, { jkt: key.jkt });
    const plain = await tokenWithProof(server, client, undefined);
    const bearer = await oauthPost(server, '/oauth/introspect', { token: plain.body.access_token }, basic(client));
    assert.equal(bearer.body.token_type, 'access_token');
    assert.equal(bearer.body.cnf, undefined);
  });

  test('discovery advertises dpop_signing_alg_values_supported, exactly the allow list', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const doc = (await (await fetch(`${server.baseUrl}${path}`)).json()) as Record<string, unknown>;
      assert.deepEqual(doc.dpop_signing_alg_values_supported, [...DPOP_SIGNING_ALGORITHMS], path);
      assert.ok(!(doc.dpop_signing_alg_values_supported as string[]).some((alg) => alg === 'none' || alg.startsWith('HS')));
    }
  });
});
