/**
 * DPoP through the code flow and refresh (RFC 9449 sections 5 and 10), over real HTTP: dpop_jkt at
 * /authorize and at PAR binds the code to a key, and redeeming it with another key's proof, or without a
 * proof, is invalid_grant (section 10.1); a public client's refresh token is bound to the key of its
 * issuance, so a refresh with another key or without a proof is refused and leaves the token usable
 * (section 5); a DPoP proof sent with a push binds the code as dpop_jkt does (section 10.1); a confidential
 * client's refresh token is not bound, and each refresh binds the new access
 * token to the proof presented then.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import {
  CALLBACK, authorize, basicAuth, codeFrom, createClient, pkcePair, redirectParams, signedInBrowser, tokenRequest, type Browser, type RegisteredClient,
} from './authorize-support.ts';
import { dpopKey, dpopProof, ISSUER, type DpopKey } from './dpop-support.ts';

function codeParams(challenge: string, state: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'code', state, code_challenge: challenge, code_challenge_method: 'S256',
    scope: 'openid email offline_access', ...extra,
  };
}

describe('DPoP in the code flow and at refresh', () => {
  let server: TestServer;
  let browser: Browser;
  let key: DpopKey;
  let other: DpopKey;
  before(async () => {
    server = await startServer(['--redirect-uris', CALLBACK]);
    browser = await signedInBrowser(server);
    key = await dpopKey();
    other = await dpopKey();
  });
  after(() => server.close());

  /** A code of the instance client (public: client_id alone), with `extra` authorization parameters. */
  async function publicCode(extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkcePair();
    const res = await authorize(server, codeParams(challenge, 'st', extra), browser.cookie);
    return { code: await codeFrom(res, 'st'), verifier };
  }

  function redeem(code: string, verifier: string, proof?: string, credentials: Record<string, string> = { client_id: CLIENT_ID }, headers: Record<string, string> = {}) {
    return tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, ...credentials }, {
      ...headers, ...(proof ? { dpop: proof } : {}),
    });
  }

  function refresh(refreshToken: string, proof?: string, credentials: Record<string, string> = { client_id: CLIENT_ID }, headers: Record<string, string> = {}) {
    return tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshToken, ...credentials }, { ...headers, ...(proof ? { dpop: proof } : {}) });
  }

  test('a public client\'s code bound with dpop_jkt is redeemed with that key: access and refresh token bound', async () => {
    const { code, verifier } = await publicCode({ dpop_jkt: key.jkt });
    const reply = await redeem(code, verifier, await dpopProof(key));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.token_type, 'DPoP');
    assert.deepEqual(decodeJwt(reply.body.access_token).cnf, { jkt: key.jkt });
    assert.deepEqual(decodeJwt(reply.body.refresh_token).cnf, { jkt: key.jkt }, 'section 5: a public client\'s refresh token is bound');
    assert.equal(decodeJwt(reply.body.id_token).cnf, undefined, 'the ID token is not bound');
  });

  test('a code bound with dpop_jkt redeemed with another key, or without a proof, is invalid_grant', async () => {
    const first = await publicCode({ dpop_jkt: key.jkt });
    const wrongKey = await redeem(first.code, first.verifier, await dpopProof(other));
    assert.equal(wrongKey.status, 400);
    assert.equal(wrongKey.body.error, 'invalid_grant');
    assert.match(wrongKey.body.error_description, /another key than the dpop_jkt/);
    const second = await publicCode({ dpop_jkt: key.jkt });
    const noProof = await redeem(second.code, second.verifier);
    assert.equal(noProof.body.error, 'invalid_grant');
    assert.match(noProof.body.error_description, /bound to a DPoP key/);
    // The code was consumed by the refused attempt (a leaked code is not tried twice).
    assert.equal((await redeem(second.code, second.verifier, await dpopProof(key))).body.error, 'invalid_grant');
  });

  test('a malformed dpop_jkt, or dpop_jkt with response_type token, goes back to the client as invalid_request', async () => {
    const { challenge } = pkcePair();
    const malformed = redirectParams(await authorize(server, codeParams(challenge, 'st', { dpop_jkt: 'short' }), browser.cookie));
    assert.equal(malformed.params.get('error'), 'invalid_request');
    assert.match(malformed.params.get('error_description') ?? '', /dpop_jkt/);
    const implicit = await authorize(server, {
      client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'token', response_mode: 'fragment', state: 'st', nonce: 'n', scope: 'openid', dpop_jkt: key.jkt,
    }, browser.cookie);
    assert.equal(redirectParams(implicit, 'fragment').params.get('error'), 'invalid_request');
  });

  test('a public client\'s bound refresh token: another key or no proof is refused and the token stays usable', async () => {
    const { code, verifier } = await publicCode();
    const issued = await redeem(code, verifier, await dpopProof(key));
    assert.deepEqual(decodeJwt(issued.body.refresh_token).cnf, { jkt: key.jkt }, 'bound without dpop_jkt too: the proof of issuance decides');
    const stolen = await refresh(issued.body.refresh_token, await dpopProof(other));
    assert.equal(stolen.status, 400);
    assert.equal(stolen.body.error, 'invalid_grant');
    assert.match(stolen.body.error_description, /another DPoP key/);
    const bare = await refresh(issued.body.refresh_token);
    assert.equal(bare.body.error, 'invalid_grant');
    assert.match(bare.body.error_description, /DPoP-bound/);
    const honest = await refresh(issued.body.refresh_token, await dpopProof(key));
    assert.equal(honest.status, 200, JSON.stringify(honest.body));
    assert.equal(honest.body.token_type, 'DPoP');
    assert.deepEqual(decodeJwt(honest.body.access_token).cnf, { jkt: key.jkt });
    assert.deepEqual(decodeJwt(honest.body.refresh_token).cnf, { jkt: key.jkt });
  });

  test('a public client without a proof gets bearer tokens as before', async () => {
    const { code, verifier } = await publicCode();
    const reply = await redeem(code, verifier);
    assert.equal(reply.body.token_type, 'Bearer');
    assert.equal(decodeJwt(reply.body.access_token).cnf, undefined);
    assert.equal(decodeJwt(reply.body.refresh_token).cnf, undefined);
    assert.equal((await refresh(reply.body.refresh_token)).body.token_type, 'Bearer');
  });

  describe('a confidential client', () => {
    let client: RegisteredClient;
    before(async () => {
      client = await createClient(server, { redirect_uris: [CALLBACK] });
    });

    test('its refresh token is not bound; each refresh binds the new access token to the proof presented then', async () => {
      const { verifier, challenge } = pkcePair();
      const res = await authorize(server, codeParams(challenge, 'st', { client_id: client.clientId }), browser.cookie);
      const code = await codeFrom(res, 'st');
      const auth = basicAuth(client.clientId, client.secret);
      const issued = await redeem(code, verifier, await dpopProof(key), {}, auth);
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      assert.deepEqual(decodeJwt(issued.body.access_token).cnf, { jkt: key.jkt });
      assert.equal(decodeJwt(issued.body.refresh_token).cnf, undefined, 'section 5: client authentication binds it already');
      const withOther = await refresh(issued.body.refresh_token, await dpopProof(other), {}, auth);
      assert.equal(withOther.status, 200, JSON.stringify(withOther.body));
      assert.deepEqual(decodeJwt(withOther.body.access_token).cnf, { jkt: other.jkt });
      const bearer = await refresh(withOther.body.refresh_token, undefined, {}, auth);
      assert.equal(bearer.body.token_type, 'Bearer');
      assert.equal(decodeJwt(bearer.body.access_token).cnf, undefined);
    });

    test('dpop_jkt pushed at PAR binds the code as at /authorize', async () => {
      const { verifier, challenge } = pkcePair();
      const pushed = await tokenRequestTo('/oauth/par', { ...codeParams(challenge, 'st', { client_id: client.clientId }), dpop_jkt: key.jkt }, basicAuth(client.clientId, client.secret));
      assert.equal(pushed.status, 201, JSON.stringify(pushed.body));
      const res = await authorize(server, { client_id: client.clientId, request_uri: pushed.body.request_uri }, browser.cookie);
      const code = await codeFrom(res, 'st');
      const auth = basicAuth(client.clientId, client.secret);
      const refused = await redeem(code, verifier, await dpopProof(other), {}, auth);
      assert.equal(refused.body.error, 'invalid_grant');
      const again = await authorize(server, codeParams(challenge, 'st2', { client_id: client.clientId, dpop_jkt: key.jkt }), browser.cookie);
      const ok = await redeem(await codeFrom(again, 'st2'), verifier, await dpopProof(key), {}, auth);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.token_type, 'DPoP');
    });

    test('a DPoP proof sent with the push binds the code to its key; a dpop_jkt of another key beside it is refused', async () => {
      const { verifier, challenge } = pkcePair();
      const auth = basicAuth(client.clientId, client.secret);
      const parProof = (signer: DpopKey) => dpopProof(signer, { htu: `${ISSUER}/oauth/par` });
      const mismatched = await tokenRequestTo('/oauth/par', { ...codeParams(challenge, 'st', { client_id: client.clientId }), dpop_jkt: other.jkt }, { ...auth, dpop: await parProof(key) });
      assert.equal(mismatched.status, 400);
      assert.equal(mismatched.body.error, 'invalid_dpop_proof');
      const wrongHtu = await tokenRequestTo('/oauth/par', codeParams(challenge, 'st', { client_id: client.clientId }), { ...auth, dpop: await dpopProof(key) });
      assert.equal(wrongHtu.body.error, 'invalid_dpop_proof', 'a proof made for the token endpoint is not one for PAR');
      const pushed = await tokenRequestTo('/oauth/par', codeParams(challenge, 'st', { client_id: client.clientId }), { ...auth, dpop: await parProof(key) });
      assert.equal(pushed.status, 201, JSON.stringify(pushed.body));
      const code = await codeFrom(await authorize(server, { client_id: client.clientId, request_uri: pushed.body.request_uri }, browser.cookie), 'st');
      assert.equal((await redeem(code, verifier, undefined, {}, auth)).body.error, 'invalid_grant', 'bound by the push\'s proof');
      const again = await tokenRequestTo('/oauth/par', codeParams(challenge, 'st', { client_id: client.clientId }), { ...auth, dpop: await parProof(key) });
      const second = await codeFrom(await authorize(server, { client_id: client.clientId, request_uri: again.body.request_uri }, browser.cookie), 'st');
      const ok = await redeem(second, verifier, await dpopProof(key), {}, auth);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.deepEqual(decodeJwt(ok.body.access_token).cnf, { jkt: key.jkt });
    });
  });

  async function tokenRequestTo(path: string, fields: Record<string, string>, headers: Record<string, string>) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }
});
