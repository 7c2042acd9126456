/**
 * The authorization code flow end to end over real HTTP (RFC 6749 sections 4.1.2 to 4.1.4; RFC 7636): a
 * browser signed in through POST /v1/login asks /authorize for a code with PKCE, the client redeems it at
 * /oauth/token. Every refusal of the token endpoint is checked in the RFC 6749 section 5.2 shape, and a
 * reused code revokes the tokens of its first exchange (RFC 6749 section 4.1.2).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, CLIENT_ID, CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { TestClock } from '../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import {
  CALLBACK, authorize, basicAuth, codeFrom, createClient, pkcePair, signedInBrowser, tokenIsValid, tokenRequest, type Browser,
} from './authorize-support.ts';

const OTHER_CALLBACK = 'http://127.0.0.1:3000/other';

function codeParams(challenge: string, state: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'code', state, code_challenge: challenge,
    code_challenge_method: 'S256', nonce: 'n-0S6_WzA2Mj', ...extra,
  };
}

async function happyPath(server: TestServer, browser: Browser) {
  const { verifier, challenge } = pkcePair();
  const res = await authorize(server, codeParams(challenge, 'st-1', { scope: 'openid email profile offline_access' }), browser.cookie);
  const code = await codeFrom(res, 'st-1');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const token = await tokenRequest(server, {
    grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, client_id: CLIENT_ID, client_secret: CLIENT_SECRET,
  });
  assert.equal(token.status, 200, JSON.stringify(token.body));
  assert.equal(token.headers.get('cache-control'), 'no-store');
  assert.deepEqual(Object.keys(token.body).sort(), ['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type']);
  assert.equal(token.body.token_type, 'Bearer');
  assert.equal(token.body.expires_in, 1800);
  assert.equal(token.body.scope, 'openid email profile offline_access');
  const id = decodeJwt(token.body.id_token);
  assert.equal(id.sub, browser.userId);
  assert.equal(id.nonce, 'n-0S6_WzA2Mj');
  assert.equal(id.aud, CLIENT_ID);
  assert.equal(id.email, browser.email);
  assert.equal(typeof id.auth_time, 'number');
  assert.equal(await tokenIsValid(server, token.body.access_token), true);
  return { code, verifier, tokens: token.body };
}

describe('authorization code grant (SQLite)', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = new TestClock();
  before(async () => {
    server = await startServer(['--redirect-uris', `${CALLBACK},${OTHER_CALLBACK}`], { clock });
    browser = await signedInBrowser(server);
  });
  after(() => server.close());

  test('a code with PKCE through the session cookie is exchanged for tokens once', async () => {
    await happyPath(server, browser);
  });

  test('the public SDK form: client_id alone, JSON body, and the refresh token of the exchange rotates', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await codeFrom(await authorize(server, codeParams(challenge, 's', { scope: 'openid offline_access' }), browser.cookie), 's');
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      body: JSON.stringify({ client_id: CLIENT_ID, code, code_verifier: verifier, redirect_uri: CALLBACK, grant_type: 'authorization_code', refresh_token: '' }),
    });
    const body = (await res.json()) as Record<string, string>;
    assert.equal(res.status, 200, JSON.stringify(body));
    const refreshed = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: body.refresh_token! });
    assert.equal(refreshed.status, 200);
  });

  test('a wrong or malformed code_verifier is refused, and the code is spent', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await codeFrom(await authorize(server, codeParams(challenge, 's'), browser.cookie), 's');
    const base = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: CLIENT_ID };
    const malformed = await tokenRequest(server, { ...base, code_verifier: 'short' });
    assert.deepEqual([malformed.status, malformed.body.error], [400, 'invalid_request']);
    const missing = await tokenRequest(server, base);
    assert.deepEqual([missing.status, missing.body.error], [400, 'invalid_request']);
    const wrong = await tokenRequest(server, { ...base, code_verifier: pkcePair().verifier });
    assert.deepEqual([wrong.status, wrong.body.error], [400, 'invalid_grant']);
    assert.match(wrong.body.error_description, /code_verifier/);
    const right = await tokenRequest(server, { ...base, code_verifier: verifier });
    assert.deepEqual([right.status, right.body.error], [400, 'invalid_grant'], 'a code shown with a wrong verifier has leaked: it is spent');
  });

  test('a reused code is invalid_grant and the tokens of its first exchange stop validating', async () => {
    const { code, verifier, tokens } = await happyPath(server, browser);
    const again = await tokenRequest(server, {
      grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, client_id: CLIENT_ID,
    });
    assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
    assert.match(again.body.error_description, /already been used/);
    assert.equal(await tokenIsValid(server, tokens.access_token), false);
    assert.equal(await tokenIsValid(server, tokens.id_token, 'id_token'), false);
    const refresh = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.deepEqual([refresh.status, refresh.body.error], [400, 'invalid_grant'], 'the refresh family is revoked too');
    const other = await signedInBrowser(server);
    assert.equal(await tokenIsValid(server, (await happyPath(server, other)).tokens.access_token), true, 'other grants are untouched');
  });

  test('redirect_uri must be repeated and equal to the one the code was issued for', async () => {
    for (const redirect of [undefined, OTHER_CALLBACK, `${CALLBACK}/`]) {
      const { verifier, challenge } = pkcePair();
      const code = await codeFrom(await authorize(server, codeParams(challenge, 's'), browser.cookie), 's');
      const fields: Record<string, string> = { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: CLIENT_ID };
      if (redirect) fields.redirect_uri = redirect;
      const res = await tokenRequest(server, fields);
      assert.deepEqual([res.status, res.body.error], [400, 'invalid_grant'], String(redirect));
      assert.match(res.body.error_description, /redirect_uri/);
    }
  });

  test('an expired code (over 60 s) is refused', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await codeFrom(await authorize(server, codeParams(challenge, 's'), browser.cookie), 's');
    clock.advance(61);
    try {
      const res = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK });
      assert.deepEqual([res.status, res.body.error], [400, 'invalid_grant']);
      assert.match(res.body.error_description, /expired/);
    } finally {
      clock.advance(-61);
    }
  });

  test('unknown codes and codes after logout are refused', async () => {
    const { verifier } = pkcePair();
    const unknown = await tokenRequest(server, { grant_type: 'authorization_code', code: 'not-a-code', code_verifier: verifier, redirect_uri: CALLBACK });
    assert.deepEqual([unknown.status, unknown.body.error], [400, 'invalid_grant']);
    const leaving = await signedInBrowser(server);
    const pair = pkcePair();
    const code = await codeFrom(await authorize(server, codeParams(pair.challenge, 's'), leaving.cookie), 's');
    const logout = await fetch(`${server.baseUrl}/v1/logout`, { method: 'POST', headers: { cookie: leaving.cookie, origin: server.baseUrl, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(logout.status, 200);
    const res = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: pair.verifier, redirect_uri: CALLBACK });
    assert.deepEqual([res.status, res.body.error], [400, 'invalid_grant']);
  });

  test('a code issued to a registered client cannot be redeemed by the instance client', async () => {
    const a = await createClient(server, { redirect_uris: [CALLBACK] });
    const { verifier, challenge } = pkcePair();
    const code = await codeFrom(await authorize(server, codeParams(challenge, 's', { client_id: a.clientId }), browser.cookie), 's');
    const asInstance = await tokenRequest(server, {
      grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK,
    }, basicAuth(CLIENT_ID, CLIENT_SECRET));
    assert.deepEqual([asInstance.status, asInstance.body.error], [400, 'invalid_grant']);
    assert.match(asInstance.body.error_description, /another client/);
  });

  test('a code of registered client A is refused to client B; A redeems its own with its secret, not without', async () => {
    const a = await createClient(server, { redirect_uris: [CALLBACK] });
    const b = await createClient(server, { redirect_uris: [CALLBACK] });
    const first = pkcePair();
    const codeForA = await codeFrom(await authorize(server, codeParams(first.challenge, 's', { client_id: a.clientId }), browser.cookie), 's');
    const byB = await tokenRequest(server, {
      grant_type: 'authorization_code', code: codeForA, code_verifier: first.verifier, redirect_uri: CALLBACK,
    }, basicAuth(b.clientId, b.secret));
    assert.deepEqual([byB.status, byB.body.error], [400, 'invalid_grant']);

    const second = pkcePair();
    const code = await codeFrom(await authorize(server, codeParams(second.challenge, 's', { client_id: a.clientId }), browser.cookie), 's');
    const fields = { grant_type: 'authorization_code', code, code_verifier: second.verifier, redirect_uri: CALLBACK };
    const unauthenticated = await tokenRequest(server, { ...fields, client_id: a.clientId });
    assert.deepEqual([unauthenticated.status, unauthenticated.body.error], [401, 'invalid_client']);
    const ok = await tokenRequest(server, fields, basicAuth(a.clientId, a.secret));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const id = decodeJwt(ok.body.id_token);
    assert.deepEqual([id.aud, id.azp], [a.clientId, a.clientId], 'OpenID Connect Core section 2: aud is the relying party');
    assert.equal(decodeJwt(ok.body.access_token).client_id, a.clientId);
  });
});

describe('authorization code grant (PostgreSQL)', () => {
  let db: TestDatabase;
  let server: TestServer;
  before(async () => {
    db = await createTestDatabase('postgres');
    server = await startServer([...db.flags, '--redirect-uris', CALLBACK]);
  });
  after(async () => {
    await server?.close();
    await db?.cleanup();
  });

  test('the code flow with PKCE and the reuse revocation work on PostgreSQL', async () => {
    const browser = await signedInBrowser(server);
    const { code, verifier, tokens } = await happyPath(server, browser);
    const again = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK });
    assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
    assert.equal(await tokenIsValid(server, tokens.access_token), false);
  });
});
