/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592), docs/openid-connect-clients.md#dynamic-client-registration.
 * Open mode: openid-client 6 registers a public client (dynamicClientRegistration) and runs the code flow with
 * PKCE through a real session; the abuses are refused in RFC 7591 section 3.2.2's shape (a confidential
 * client, http off loopback, javascript:, a fragment, a wildcard) and the per-IP limit holds. Initial-token
 * mode: an admin's token is required, spent per use, revocable; a confidential client gets a secret.
 * Management: GET/PUT/DELETE with the registration access token, refused with another client's or at a
 * first-party API, on SQLite, PostgreSQL and MariaDB. Off (the default): no route, nothing in discovery.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { signUpAndLogIn, startOidcServer } from '../support/oidc-server.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';

const CALLBACK = 'http://127.0.0.1:3999/callback';

async function register(server: TestServer, metadata: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(metadata),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any, headers: res.headers };
}

describe('dynamic client registration, open mode', () => {
  let server: TestServer;
  before(async () => {
    server = await startOidcServer(['--dynamic-registration', 'open']);
  });
  after(async () => server?.close());

  test('discovery advertises the registration endpoint', async () => {
    const doc = await (await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).json();
    assert.equal(doc.registration_endpoint, `${server.baseUrl}/oauth/register`);
  });

  test('openid-client registers a public client, then runs the code flow with PKCE and no secret', async () => {
    const rp = await client.dynamicClientRegistration(new URL(server.baseUrl), {
      redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', client_name: 'Native app', scope: 'openid email',
    }, client.None(), { execute: [client.allowInsecureRequests] });
    const metadata = rp.clientMetadata();
    assert.equal(typeof metadata.client_id, 'string');
    assert.equal(metadata.client_secret, undefined, 'a public client gets no secret');
    assert.equal(typeof metadata.registration_access_token, 'string');
    assert.equal(metadata.registration_client_uri, `${server.baseUrl}/oauth/register/${metadata.client_id}`);
    assert.equal(metadata.token_endpoint_auth_method, 'none');

    const browser = await signUpAndLogIn(server);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(rp, {
      redirect_uri: CALLBACK, scope: 'openid email', state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const first = await fetch(url, { redirect: 'manual', headers: { cookie: browser.cookie } });
    // A self-registered client is third-party: the user consents first (RFC 7591 section 5).
    assert.equal(first.status, 302);
    const consent = new URL(first.headers.get('location')!, server.baseUrl);
    assert.equal(consent.pathname, '/app/consent', `consent screen expected, got ${consent.href}`);
    const decision = await fetch(`${server.baseUrl}/v1/decide_authorization_request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: browser.cookie, origin: server.baseUrl },
      body: JSON.stringify({ request_id: consent.searchParams.get('request'), approve: true }),
    });
    const decided = (await decision.json()) as any;
    assert.equal(decision.status, 200, JSON.stringify(decided));
    const resumed = await fetch(decided.redirect_uri, { redirect: 'manual', headers: { cookie: browser.cookie } });
    const location = new URL(resumed.headers.get('location')!);
    assert.ok(location.href.startsWith(CALLBACK), location.href);
    const tokens = await client.authorizationCodeGrant(rp, location, { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true });
    assert.equal(tokens.claims()!.aud, metadata.client_id);
    assert.equal(tokens.claims()!.sub, browser.userId);

    // The registration access token is accepted only at its registration_client_uri, never as an access token.
    const userinfo = await fetch(`${server.baseUrl}/userinfo`, { headers: { authorization: `Bearer ${metadata.registration_access_token}` } });
    assert.equal(userinfo.status, 401);
    const profile = await fetch(`${server.baseUrl}/v1/profile`, { headers: { authorization: `Bearer ${metadata.registration_access_token}` } });
    assert.ok(profile.status === 401 || profile.status === 403, `profile answered ${profile.status}`);

    // Registered for response_type code only: an implicit request goes back refused (RFC 6749 section 4.2.2.1).
    const implicit = await fetch(client.buildAuthorizationUrl(rp, { redirect_uri: CALLBACK, scope: 'openid', state, nonce: 'n', response_type: 'token', response_mode: 'fragment' }), {
      redirect: 'manual', headers: { cookie: browser.cookie },
    });
    const refusedAt = new URL(implicit.headers.get('location')!);
    assert.equal(new URLSearchParams(refusedAt.hash.slice(1)).get('error'), 'unauthorized_client', refusedAt.href);

    // The console's list shows it as dynamically registered.
    const listed = await adminClient(server).ok('client', { client_id: metadata.client_id });
    assert.equal(listed.dynamically_registered, true);
  });

  test('abuse is refused in RFC 7591 section 3.2.2 shape', async () => {
    const confidential = await register(server, { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_basic' });
    assert.equal(confidential.status, 400);
    assert.equal(confidential.body.error, 'invalid_client_metadata');
    for (const uri of ['http://example.com/cb', 'javascript:alert(1)', 'https://app.example/cb#frag', 'https://*.example.com/cb', 'http://localhost:3000/cb', 'com.example.app:/cb']) {
      const refused = await register(server, { redirect_uris: [uri] });
      assert.equal(refused.status, 400, uri);
      assert.equal(refused.body.error, 'invalid_redirect_uri', uri);
    }
    const implicit = await register(server, { redirect_uris: [CALLBACK], response_types: ['token'] });
    assert.equal(implicit.body.error, 'invalid_client_metadata');
    const refreshUnregistered = await register(server, { redirect_uris: [CALLBACK], scope: 'openid offline_access' });
    assert.equal(refreshUnregistered.status, 400);
    assert.equal(refreshUnregistered.body.error, 'invalid_client_metadata', 'offline_access without the refresh_token grant');
    const notJson = await register(server, ['not', 'an', 'object']);
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error, 'invalid_client_metadata');
    const internalJwks = await register(server, { redirect_uris: [CALLBACK], jwks_uri: 'https://169.254.169.254/keys' });
    assert.equal(internalJwks.body.error, 'invalid_client_metadata');
    // https and the IPv6 loopback with any port are fine.
    const ok = await register(server, { redirect_uris: ['https://app.example/cb', 'http://[::1]:61234/cb'] });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.client_secret, undefined);
  });

  test('registrations per IP are limited', async () => {
    let last = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < 12; i++) {
      const answer = await register(server, { redirect_uris: [CALLBACK] });
      last = answer.status;
      retryAfter = answer.headers.get('retry-after');
      if (last !== 201) {
        assert.equal(answer.body.error, 'temporarily_unavailable');
        break;
      }
    }
    assert.equal(last, 429);
    assert.ok(Number(retryAfter) > 0, 'Retry-After says when');
  });
});

for (const kind of testDatabaseKinds()) describe(`dynamic client registration, initial-token mode and RFC 7592 management (${kind})`, () => {
  let db: TestDatabase;
  let server: TestServer;
  before(async () => {
    db = await createTestDatabase(kind);
    server = await startOidcServer([...db.flags, '--dynamic-registration', 'initial-token']);
  });
  after(async () => {
    await server?.close();
    await db?.cleanup();
  });

  test('no token, a wrong token and a used-up token are refused; a live one registers a confidential client', async () => {
    const admin = adminClient(server);
    assert.equal((await register(server, { redirect_uris: [CALLBACK] })).status, 401);
    assert.equal((await register(server, { redirect_uris: [CALLBACK] }, { authorization: 'Bearer nope' })).status, 401);
    const issued = await admin.ok('create_initial_access_token', { description: 'ci', expires_in_seconds: 600, uses: 1 });
    const bearer = { authorization: `Bearer ${issued.token}` };
    const created = await register(server, { redirect_uris: ['https://rp.example/cb'], client_name: 'Partner', contacts: ['ops@rp.example'] }, bearer);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(typeof created.body.client_secret, 'string');
    assert.equal(created.body.client_secret_expires_at, 0);
    assert.equal(created.body.token_endpoint_auth_method, 'client_secret_basic');
    assert.deepEqual(created.body.contacts, ['ops@rp.example']);
    assert.equal(typeof created.body.client_id_issued_at, 'number');
    const again = await register(server, { redirect_uris: [CALLBACK] }, bearer);
    assert.equal(again.status, 401, 'its one use is spent');

    const listed = await admin.ok('initial_access_tokens', {});
    const row = listed.initial_access_tokens.find((t: any) => t.id === issued.initial_access_token.id);
    assert.equal(row.uses_left, 0);
    assert.equal(JSON.stringify(listed).includes(issued.token), false, 'the list never shows the token');

    const second = await admin.ok('create_initial_access_token', { expires_in_seconds: 600 });
    await admin.ok('revoke_initial_access_token', { id: second.initial_access_token.id });
    assert.equal((await register(server, { redirect_uris: [CALLBACK] }, { authorization: `Bearer ${second.token}` })).status, 401);
  });

  test('GET, PUT and DELETE with the registration access token; another client\'s token is refused', async () => {
    const admin = adminClient(server);
    const { token } = await admin.ok('create_initial_access_token', { expires_in_seconds: 600, uses: 2 });
    const a = (await register(server, { redirect_uris: [CALLBACK], client_name: 'A' }, { authorization: `Bearer ${token}` })).body;
    const b = (await register(server, { redirect_uris: [CALLBACK], client_name: 'B' }, { authorization: `Bearer ${token}` })).body;
    const uri = a.registration_client_uri;
    const bearer = (rat: string) => ({ authorization: `Bearer ${rat}` });
    const as = (rat: string) => ({ ...bearer(rat), 'content-type': 'application/json' });

    const read = await fetch(uri, { headers: bearer(a.registration_access_token) });
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as any).client_name, 'A');
    assert.equal((await fetch(uri, { headers: bearer(b.registration_access_token) })).status, 401, 'B\'s token is not A\'s');
    assert.equal((await fetch(uri, { headers: bearer(a.client_secret) })).status, 401, 'the client secret is not the registration token');

    const put = await fetch(uri, { method: 'PUT', headers: as(a.registration_access_token), body: JSON.stringify({ client_id: a.client_id, redirect_uris: ['https://rp.example/new'], client_name: 'A2' }) });
    const updated = (await put.json()) as any;
    assert.equal(put.status, 200, JSON.stringify(updated));
    assert.deepEqual(updated.redirect_uris, ['https://rp.example/new']);
    const badPut = await fetch(uri, { method: 'PUT', headers: as(a.registration_access_token), body: JSON.stringify({ client_id: a.client_id, redirect_uris: ['javascript:x'] }) });
    assert.equal(((await badPut.json()) as any).error, 'invalid_redirect_uri');

    assert.equal((await fetch(uri, { method: 'DELETE', headers: bearer(a.registration_access_token) })).status, 204);
    assert.equal((await fetch(uri, { headers: bearer(a.registration_access_token) })).status, 401, 'gone with its client');
  });
});

describe('dynamic client registration, off (the default)', () => {
  let server: TestServer;
  before(async () => {
    server = await startOidcServer();
  });
  after(async () => server?.close());

  test('no registration route and nothing in discovery', async () => {
    assert.equal((await register(server, { redirect_uris: [CALLBACK] })).status, 404);
    const doc = await (await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).json();
    assert.equal(doc.registration_endpoint, undefined);
  });
});
