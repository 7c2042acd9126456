/**
 * DPoP-bound tokens at the resources (RFC 9449 section 7): /userinfo takes `Authorization: DPoP` with a
 * proof for its method and URL (from --url) and the token's hash (ath), spent once; a bound token sent as
 * Bearer is invalid_token and every refusal carries a `WWW-Authenticate: DPoP` challenge with algs (section
 * 7.1). validate_jwt_token, over REST, GraphQL and gRPC, takes the proof a resource server received with
 * the method and URI of its request (dpop_proof, http_method, http_uri) and refuses a bound token without
 * them, from memory too; unbound tokens validate as before. The first-party API refuses a bound token.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { threeProtocols, PROTOCOLS, type ThreeProtocols } from '../support/three-protocols.ts';
import { CALLBACK, authorize, codeFrom, pkcePair, signedInBrowser, tokenRequest, type Browser } from './authorize-support.ts';
import { dpopKey, dpopProof, USERINFO_URL, type DpopKey } from './dpop-support.ts';

const API_URL = 'https://api.example.com/orders';

describe('DPoP-bound tokens at /userinfo and validate_jwt_token', () => {
  let server: TestServer;
  let browser: Browser;
  let key: DpopKey;
  let other: DpopKey;
  let protocols: ThreeProtocols;
  before(async () => {
    server = await startServer(['--redirect-uris', CALLBACK]);
    browser = await signedInBrowser(server);
    key = await dpopKey();
    other = await dpopKey('EdDSA');
    protocols = threeProtocols(server);
  });
  after(async () => {
    protocols.close();
    await server.close();
  });

  /** An access token of the instance client (public), bound to `bound` when given. */
  async function accessToken(bound?: DpopKey): Promise<string> {
    const { verifier, challenge } = pkcePair();
    const res = await authorize(server, {
      client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'code', state: 'st', code_challenge: challenge, scope: 'openid email',
    }, browser.cookie);
    const reply = await tokenRequest(server, { grant_type: 'authorization_code', code: await codeFrom(res, 'st'), code_verifier: verifier, redirect_uri: CALLBACK, client_id: CLIENT_ID },
      bound ? { dpop: await dpopProof(bound) } : {});
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.access_token;
  }

  async function userinfo(authorization: string, proof?: string, method = 'GET') {
    const res = await fetch(`${server.baseUrl}/userinfo`, { method, headers: { authorization, ...(proof ? { dpop: proof } : {}) } });
    return { status: res.status, body: (await res.json()) as Record<string, any>, challenge: res.headers.get('www-authenticate') ?? '' };
  }

  function assertDpopRefusal(reply: { status: number; body: Record<string, any>; challenge: string }, error: string, pattern: RegExp) {
    assert.equal(reply.status, 401, JSON.stringify(reply.body));
    assert.equal(reply.body.error, error);
    assert.match(reply.body.error_description, pattern);
    assert.match(reply.challenge, new RegExp(`^DPoP error="${error}"`));
    assert.match(reply.challenge, /algs="ES256 [^"]*PS256/);
  }

  describe('/userinfo', () => {
    test('a bound token with the DPoP scheme and a proof for this request answers the claims', async () => {
      const token = await accessToken(key);
      const reply = await userinfo(`DPoP ${token}`, await dpopProof(key, { htm: 'GET', htu: USERINFO_URL, accessToken: token }));
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.sub, browser.userId);
      const posted = await userinfo(`DPoP ${token}`, await dpopProof(key, { htm: 'POST', htu: USERINFO_URL, accessToken: token }), 'POST');
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
    });

    test('a bound token presented as Bearer is invalid_token with the DPoP challenge', async () => {
      const token = await accessToken(key);
      assertDpopRefusal(await userinfo(`Bearer ${token}`), 'invalid_token', /DPoP-bound/);
      assertDpopRefusal(await userinfo(`Bearer ${token}`, await dpopProof(key, { htm: 'GET', htu: USERINFO_URL, accessToken: token })), 'invalid_token', /DPoP-bound/);
    });

    test('a wrong ath, another method or URL, a replayed proof, another key or no proof is invalid_dpop_proof', async () => {
      const token = await accessToken(key);
      const otherToken = await accessToken(key);
      const proofFor = (claims: Parameters<typeof dpopProof>[1], signer = key) => dpopProof(signer, { htm: 'GET', htu: USERINFO_URL, accessToken: token, ...claims });
      assertDpopRefusal(await userinfo(`DPoP ${token}`, await proofFor({ accessToken: otherToken })), 'invalid_dpop_proof', /ath/);
      assertDpopRefusal(await userinfo(`DPoP ${token}`, await proofFor({ htm: 'POST' })), 'invalid_dpop_proof', /htm must be GET/);
      assertDpopRefusal(await userinfo(`DPoP ${token}`, await proofFor({ htu: `${server.baseUrl}/userinfo` })), 'invalid_dpop_proof', /htu/);
      assertDpopRefusal(await userinfo(`DPoP ${token}`, await proofFor({}, other)), 'invalid_dpop_proof', /another key/);
      assertDpopRefusal(await userinfo(`DPoP ${token}`), 'invalid_dpop_proof', /proof is required/);
      const once = await proofFor({});
      assert.equal((await userinfo(`DPoP ${token}`, once)).status, 200);
      assertDpopRefusal(await userinfo(`DPoP ${token}`, once), 'invalid_dpop_proof', /already used/);
    });

    test('an unbound token works as Bearer and is refused with the DPoP scheme; no token names both schemes', async () => {
      const token = await accessToken();
      assert.equal((await userinfo(`Bearer ${token}`)).status, 200);
      assertDpopRefusal(await userinfo(`DPoP ${token}`, await dpopProof(key, { htm: 'GET', htu: USERINFO_URL, accessToken: token })), 'invalid_token', /not DPoP-bound/);
      const none = await fetch(`${server.baseUrl}/userinfo`);
      assert.equal(none.status, 401);
      assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer realm="[^"]+", DPoP algs="ES256 /);
    });

    test('the first-party API takes no bound token as a bearer token', async () => {
      const token = await accessToken(key);
      const res = await fetch(`${server.baseUrl}/v1/profile`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 401);
      assert.match(((await res.json()) as { message: string }).message, /DPoP-bound/);
    });
  });

  describe('validate_jwt_token', () => {
    test('a bound token with a proof of the resource server\'s request validates, over the three protocols', async () => {
      const token = await accessToken(key);
      for (const protocol of PROTOCOLS) {
        const dpop_proof = await dpopProof(key, { htm: 'GET', htu: `${API_URL}?page=2`, accessToken: token });
        const answer = await protocols.over(protocol, 'validate_jwt_token', { token_type: 'access_token', token, dpop_proof, http_method: 'GET', http_uri: `${API_URL}?page=2` }, 'anonymous');
        assert.equal(answer.is_valid, true, protocol);
        assert.deepEqual(answer.claims.cnf, { jkt: key.jkt }, protocol);
      }
    });

    test('a bound token without a proof is refused over the three protocols, from memory too', async () => {
      const token = await accessToken(key);
      // The first call reads the token's state into memory; the second is answered from it (validate-route.ts).
      for (let round = 0; round < 2; round++) {
        for (const protocol of PROTOCOLS) {
          const outcome = await protocols.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token }, 'anonymous');
          assert.equal('error' in outcome && outcome.error, 'unauthenticated', `${protocol} round ${round}`);
          assert.match('message' in outcome ? outcome.message : '', /DPoP-bound/);
        }
      }
    });

    test('a replayed proof, a wrong ath, method, URI or key, or a missing URI is refused over the three protocols', async () => {
      const token = await accessToken(key);
      const otherToken = await accessToken(key);
      const base = { token_type: 'access_token', token, http_method: 'GET', http_uri: API_URL };
      for (const protocol of PROTOCOLS) {
        const refused = async (input: Record<string, unknown>, pattern: RegExp) => {
          const outcome = await protocols.call(protocol, 'validate_jwt_token', { ...base, ...input }, 'anonymous');
          assert.equal('error' in outcome && outcome.error, 'unauthenticated', `${protocol}: ${JSON.stringify(outcome)}`);
          assert.match('message' in outcome ? outcome.message : '', pattern, protocol);
        };
        const proof = (claims: Parameters<typeof dpopProof>[1] = {}, signer = key) => dpopProof(signer, { htm: 'GET', htu: API_URL, accessToken: token, ...claims });
        const once = await proof();
        assert.equal((await protocols.over(protocol, 'validate_jwt_token', { ...base, dpop_proof: once }, 'anonymous')).is_valid, true);
        await refused({ dpop_proof: once }, /already used/);
        await refused({ dpop_proof: await proof({ accessToken: otherToken }) }, /ath/);
        await refused({ dpop_proof: await proof({ htm: 'POST' }) }, /htm must be GET/);
        await refused({ dpop_proof: await proof({ htu: 'https://evil.example.com/orders' }) }, /htu/);
        await refused({ dpop_proof: await proof({}, other) }, /another key/);
        await refused({ dpop_proof: await proof(), http_uri: undefined }, /method and URI/);
      }
    });

    test('an unbound token validates without a proof as before, and is refused with one', async () => {
      const token = await accessToken();
      for (const protocol of PROTOCOLS) {
        assert.equal((await protocols.over(protocol, 'validate_jwt_token', { token_type: 'access_token', token }, 'anonymous')).is_valid, true);
        const dpop_proof = await dpopProof(key, { htm: 'GET', htu: API_URL, accessToken: token });
        const outcome = await protocols.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token, dpop_proof, http_method: 'GET', http_uri: API_URL }, 'anonymous');
        assert.match('message' in outcome ? outcome.message : '', /not DPoP-bound/, protocol);
      }
    });
  });
});
