/**
 * OpenID Connect Back-Channel Logout 1.0 (docs/openid-connect-clients.md#back-channel-logout): a client that
 * registered a backchannel_logout_uri and got tokens in a session receives a logout token (§2.4), verified
 * here with the server's JWKS, when that session ends; a client without tokens in it gets nothing; a 500 is
 * retried; a private receiver address is refused without --webhook-allow-private-addresses=true.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify, decodeProtectedHeader, decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { startServer, type TestServer } from '../support/app.ts';
import { signUpAndLogIn, startOidcServer } from '../support/oidc-server.ts';
import { adminClient } from '../support/admin-client.ts';
import { CALLBACK, PASSWORD, authorize, basicAuth, callAs, codeFrom, createClient, pkcePair, signedInBrowser, tokenRequest, type Browser, type RegisteredClient } from './authorize-support.ts';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

interface Receiver { url: string; tokens: string[]; failNext: number; close(): Promise<void> }

async function startReceiver(): Promise<Receiver> {
  const receiver = { tokens: [] as string[], failNext: 0 } as Receiver;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
      if (receiver.failNext > 0) {
        receiver.failNext -= 1;
        res.writeHead(500).end();
        return;
      }
      receiver.tokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

async function waitFor(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for a logout token');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('back-channel logout with --webhook-allow-private-addresses=true', () => {
  let server: TestServer;
  let receiver: Receiver;
  let other: Receiver;
  let rp: RegisteredClient;
  let bystander: RegisteredClient;

  before(async () => {
    // An asymmetric key, so that the relying party verifies with the published JWKS (OpenID Connect Core 10.1).
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    server = await startServer(['--webhook-allow-private-addresses=true', '--jwt-type', 'ES256', '--jwt-private-key', key, '--encryption-key', 'enc-key-for-tests']);
    receiver = await startReceiver();
    other = await startReceiver();
    rp = await createClient(server, { redirect_uris: [CALLBACK] });
    bystander = await createClient(server, { redirect_uris: [CALLBACK] });
    const admin = adminClient(server);
    const set = await admin.ok('set_client_backchannel_logout', { client_id: rp.clientId, backchannel_logout_uri: receiver.url, backchannel_logout_session_required: true });
    assert.equal(set.backchannel_logout_uri, receiver.url);
    await admin.ok('set_client_backchannel_logout', { client_id: bystander.clientId, backchannel_logout_uri: other.url, backchannel_logout_session_required: false });
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await other.close();
  });

  /** A browser session in which `rp` got tokens through the code flow; answers the ID token. */
  async function sessionWithTokens(): Promise<{ browser: Browser; idToken: string }> {
    const browser = await signedInBrowser(server);
    const { verifier, challenge } = pkcePair();
    const res = await authorize(server, {
      client_id: rp.clientId, redirect_uri: CALLBACK, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256', scope: 'openid',
    }, browser.cookie);
    const code = await codeFrom(res, 's');
    const token = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK }, basicAuth(rp.clientId, rp.secret));
    assert.equal(token.status, 200, JSON.stringify(token.body));
    return { browser, idToken: token.body.id_token };
  }

  async function assertLogoutToken(token: string, idToken: string): Promise<void> {
    const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/.well-known/jwks.json`));
    const issuer = decodeJwt(idToken).iss!;
    const { payload } = await jwtVerify(token, jwks, { issuer, audience: rp.clientId, typ: 'logout+jwt' });
    assert.equal(decodeProtectedHeader(token).typ, 'logout+jwt');
    const id = decodeJwt(idToken);
    assert.equal(payload.sub, id.sub);
    assert.equal(payload.sid, id.sid, 'the sid of the ID token of the same session');
    assert.ok(typeof id.sid === 'string' && id.sid.length > 0);
    assert.deepEqual(payload.events, { [EVENT]: {} });
    assert.equal(payload.nonce, undefined);
    assert.ok(typeof payload.jti === 'string' && payload.exp! - payload.iat! <= 120);
  }

  test('discovery says back-channel logout and its sid are supported', async () => {
    const meta = (await (await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(meta.backchannel_logout_supported, true);
    assert.equal(meta.backchannel_logout_session_supported, true);
  });

  test('logout sends the client a logout token verifiable with the JWKS; a client without tokens in the session gets nothing', async () => {
    const { browser, idToken } = await sessionWithTokens();
    receiver.tokens.length = 0;
    other.tokens.length = 0;
    const out = await callAs(server, browser, 'logout');
    assert.equal(out.status, 200, JSON.stringify(out.body));
    await waitFor(() => receiver.tokens.length === 1);
    await assertLogoutToken(receiver.tokens[0]!, idToken);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(other.tokens.length, 0, 'the bystander client got no tokens in that session');
    assert.equal(receiver.tokens.length, 1, 'one token per ended session');
  });

  test('an admin revoking the session sends the logout token', async () => {
    const { browser, idToken } = await sessionWithTokens();
    receiver.tokens.length = 0;
    const admin = adminClient(server);
    const { sessions } = await admin.ok('user_sessions', { user_id: browser.userId });
    // The signup's session and the login's: only the login's had the client's tokens.
    for (const session of sessions) await admin.ok('revoke_session', { user_id: browser.userId, id: session.id });
    await waitFor(() => receiver.tokens.length === 1);
    await assertLogoutToken(receiver.tokens[0]!, idToken);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(receiver.tokens.length, 1, 'the session without the client\'s tokens sends nothing');
  });

  test('a password change ends the other sessions and sends their logout tokens', async () => {
    const { browser, idToken } = await sessionWithTokens();
    receiver.tokens.length = 0;
    // A second sign-in of the same person changes the password; the first session (the client's) ends.
    const login = await fetch(`${server.baseUrl}/v1/login`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:8080', 'content-type': 'application/json' },
      body: JSON.stringify({ email: browser.email, password: PASSWORD }),
    });
    assert.equal(login.status, 200);
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('cookie_session='))!;
    const changed = await callAs(server, { ...browser, cookie }, 'update_profile', { old_password: PASSWORD, new_password: 'An0ther!pass-2', confirm_new_password: 'An0ther!pass-2' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    await waitFor(() => receiver.tokens.length === 1);
    await assertLogoutToken(receiver.tokens[0]!, idToken);
  });

  test('an administrator revoking the user\'s access (revoke_access) sends the logout token of the client\'s session', async () => {
    const { browser, idToken } = await sessionWithTokens();
    receiver.tokens.length = 0;
    await adminClient(server).ok('revoke_access', { user_id: browser.userId });
    await waitFor(() => receiver.tokens.length === 1);
    await assertLogoutToken(receiver.tokens[0]!, idToken);
  });

  test('the device grant\'s own session, ended by an administrator, sends the device client a logout token', async () => {
    const admin = adminClient(server);
    await admin.ok('set_client_device_grant', { client_id: rp.clientId, enabled: true });
    const browser = await signedInBrowser(server);
    const started = await fetch(`${server.baseUrl}/oauth/device_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basicAuth(rp.clientId, rp.secret) },
      body: 'scope=openid',
    });
    const opened = (await started.json()) as Record<string, string>;
    assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: opened.user_code!, approve: true })).status, 200);
    const granted = await tokenRequest(server, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: opened.device_code! }, basicAuth(rp.clientId, rp.secret));
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    receiver.tokens.length = 0;
    const deviceSid = decodeJwt(granted.body.id_token).sid;
    const { sessions } = await admin.ok('user_sessions', { user_id: browser.userId });
    // The browser's sessions are left alone: they got no tokens of this client.
    for (const session of sessions) await admin.ok('revoke_session', { user_id: browser.userId, id: session.id });
    await waitFor(() => receiver.tokens.length === 1);
    assert.equal(decodeJwt(receiver.tokens[0]!).sid, deviceSid);
    await assertLogoutToken(receiver.tokens[0]!, granted.body.id_token);
  });

  test('a 500 from the receiver is retried until it answers 200', async () => {
    const { browser, idToken } = await sessionWithTokens();
    receiver.tokens.length = 0;
    receiver.failNext = 1;
    await callAs(server, browser, 'logout');
    await waitFor(() => receiver.tokens.length === 1, 10_000);
    assert.equal(receiver.failNext, 0, 'the first attempt was answered 500');
    await assertLogoutToken(receiver.tokens[0]!, idToken);
  });
});

describe('back-channel logout wakes on commit, not on its poll', () => {
  /** Far longer than the test: only a commit's wake (or the retry timer) can deliver. */
  const POLL_MS = 600_000;
  /** Well under the poll, with room for a loaded machine. */
  const PROMPT_MS = 2000;
  let server: TestServer;
  let receiver: Receiver;
  let rp: RegisteredClient;

  before(async () => {
    server = await startServer(['--webhook-allow-private-addresses=true'], { backchannel: { pollMs: POLL_MS, retryBaseMs: 200, retryMaxMs: 400 } });
    receiver = await startReceiver();
    rp = await createClient(server, { redirect_uris: [CALLBACK] });
    await adminClient(server).ok('set_client_backchannel_logout', { client_id: rp.clientId, backchannel_logout_uri: receiver.url, backchannel_logout_session_required: true });
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  async function browserWithTokens(): Promise<Browser> {
    const browser = await signedInBrowser(server);
    const { verifier, challenge } = pkcePair();
    const res = await authorize(server, {
      client_id: rp.clientId, redirect_uri: CALLBACK, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256', scope: 'openid',
    }, browser.cookie);
    const token = await tokenRequest(server, { grant_type: 'authorization_code', code: await codeFrom(res, 's'), code_verifier: verifier, redirect_uri: CALLBACK }, basicAuth(rp.clientId, rp.secret));
    assert.equal(token.status, 200, JSON.stringify(token.body));
    return browser;
  }

  test('a logout reaches the client within moments of its commit, with a ten-minute poll', async () => {
    const browser = await browserWithTokens();
    receiver.tokens.length = 0;
    const out = await callAs(server, browser, 'logout');
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const committed = Date.now();
    await waitFor(() => receiver.tokens.length === 1, PROMPT_MS);
    assert.ok(Date.now() - committed < PROMPT_MS, `delivered ${Date.now() - committed} ms after the commit`);
  });

  test('several sessions ended at once by an administrator are all delivered promptly', async () => {
    const browsers = [await browserWithTokens(), await browserWithTokens(), await browserWithTokens()];
    receiver.tokens.length = 0;
    for (const browser of browsers) await adminClient(server).ok('revoke_access', { user_id: browser.userId });
    await waitFor(() => receiver.tokens.length === 3, PROMPT_MS);
  });

  test('a failed attempt is retried by the worker\'s own timer, not the poll', async () => {
    const browser = await browserWithTokens();
    receiver.tokens.length = 0;
    receiver.failNext = 1;
    await callAs(server, browser, 'logout');
    await waitFor(() => receiver.tokens.length === 1, PROMPT_MS + 1000);
    assert.equal(receiver.failNext, 0, 'the first attempt was answered 500');
  });
});

describe('back-channel logout of a client openid-client registered at /oauth/register (RFC 7591 metadata)', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startOidcServer(['--webhook-allow-private-addresses=true', '--dynamic-registration', 'open']);
    receiver = await startReceiver();
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  test('the registered backchannel_logout_uri is echoed, read by the admin and sent a logout token the JWKS verifies', async () => {
    const rp = await oidc.dynamicClientRegistration(new URL(server.baseUrl), {
      redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', client_name: 'SPA', scope: 'openid',
      backchannel_logout_uri: receiver.url, backchannel_logout_session_required: true,
    }, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const metadata = rp.clientMetadata();
    assert.equal(metadata.backchannel_logout_uri, receiver.url);
    assert.equal(metadata.backchannel_logout_session_required, true);
    assert.equal(rp.serverMetadata().backchannel_logout_supported, true);
    assert.deepEqual(await adminClient(server).ok('client_backchannel_logout', { client_id: metadata.client_id }), {
      client_id: metadata.client_id, backchannel_logout_uri: receiver.url, backchannel_logout_session_required: true,
    });

    const browser = await signUpAndLogIn(server);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: CALLBACK, scope: 'openid', state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    // A self-registered client is third-party: the user consents first (RFC 7591 section 5).
    const consent = new URL((await fetch(url, { redirect: 'manual', headers: { cookie: browser.cookie } })).headers.get('location')!, server.baseUrl);
    const decision = await fetch(`${server.baseUrl}/v1/decide_authorization_request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: browser.cookie, origin: server.baseUrl },
      body: JSON.stringify({ request_id: consent.searchParams.get('request'), approve: true }),
    });
    const decided = (await decision.json()) as { redirect_uri: string };
    const resumed = await fetch(decided.redirect_uri, { redirect: 'manual', headers: { cookie: browser.cookie } });
    const tokens = await oidc.authorizationCodeGrant(rp, new URL(resumed.headers.get('location')!), { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true });
    const sid = tokens.claims()!.sid;
    assert.equal(typeof sid, 'string');

    const out = await fetch(`${server.baseUrl}/v1/logout`, { method: 'POST', headers: { cookie: browser.cookie, origin: server.baseUrl, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(out.status, 200);
    await waitFor(() => receiver.tokens.length === 1);
    const jwks = createRemoteJWKSet(new URL(rp.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(receiver.tokens[0]!, jwks, { issuer: rp.serverMetadata().issuer, audience: metadata.client_id, typ: 'logout+jwt' });
    assert.equal(payload.sid, sid);
    assert.deepEqual(payload.events, { [EVENT]: {} });
  });
});

describe('back-channel logout registration without the allowance flag', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--dynamic-registration', 'open']);
  });
  after(() => server.close());

  test('a receiver on a private or loopback address, or plain http elsewhere, is refused', async () => {
    const client = await createClient(server, { redirect_uris: [CALLBACK] });
    const admin = adminClient(server);
    for (const uri of ['http://127.0.0.1:9/bc', 'https://10.0.0.5/bc', 'https://localhost/bc', 'http://rp.example.test/bc', 'https://rp.example.test/bc#x']) {
      const res = await admin.call('set_client_backchannel_logout', { client_id: client.clientId, backchannel_logout_uri: uri, backchannel_logout_session_required: false });
      assert.equal(res.status, 400, `${uri}: ${JSON.stringify(res.body)}`);
    }
    for (const uri of ['https://192.168.1.20/bc', 'http://rp.example.test/bc']) {
      const res = await fetch(`${server.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', backchannel_logout_uri: uri }),
      });
      const body = (await res.json()) as Record<string, string>;
      assert.deepEqual([res.status, body.error], [400, 'invalid_client_metadata'], `${uri}: ${JSON.stringify(body)}`);
    }
    const ok = await admin.ok('set_client_backchannel_logout', { client_id: client.clientId, backchannel_logout_uri: 'https://rp.example.test/bc', backchannel_logout_session_required: false });
    assert.equal(ok.backchannel_logout_uri, 'https://rp.example.test/bc');
  });
});
