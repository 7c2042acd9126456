/**
 * Social sign-in end to end against a real OpenID Connect provider on loopback (`oidc-provider`, acting as
 * "google" through --google-base-url): discovery, authorization with PKCE S256 and a nonce, the code
 * exchange with client_secret_post, and an RS256 ID token validated with the upstream's JWKS. The session
 * it opens is accepted by /v1/session and its ID token says how the user signed in (amr fed).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { startOidcUpstream, type OidcUpstream } from '../support/social-oidc-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { createUser, findUserByEmail } from '../../server/modules/users/index.ts';
import { systemClock } from '../../server/kernel/deps.ts';

const APP = 'https://app.example.com/callback';
const CALLBACK = 'http://127.0.0.1:8080/oauth_callback/google';

describe('social sign-in with an OpenID Connect upstream (google)', () => {
  let upstream: OidcUpstream;
  let server: TestServer;
  const browserFor = () => new TestBrowser(server.baseUrl, [upstream.issuer]);
  const loginUrl = (state = 'g-state') => `${server.baseUrl}/oauth_login/google?${new URLSearchParams({ redirectURL: APP, state, scope: 'openid email profile' })}`;
  const sessionOf = (browser: TestBrowser) => restClient(server).post('/v1/session', {}, { cookie: browser.cookieHeader() });

  before(async () => {
    upstream = await startOidcUpstream({ redirectUri: CALLBACK });
    server = await startServer(['--allowed-origins', '*,https://app.example.com', ...upstream.flags()]);
    upstream.accounts.set('g-100', { email: 'ada@example.com', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' });
    upstream.accounts.set('g-200', { email: 'grace@example.com', email_verified: false });
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });

  test('the authorization request carries PKCE S256, a nonce and the discovered endpoint', async () => {
    const hop = await browserFor().request(loginUrl());
    assert.equal(hop.status, 302);
    const location = new URL(hop.location!);
    assert.equal(location.origin, upstream.issuer);
    assert.equal(location.searchParams.get('client_id'), upstream.clientId);
    assert.equal(location.searchParams.get('redirect_uri'), CALLBACK);
    assert.equal(location.searchParams.get('scope'), 'openid email profile');
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.match(location.searchParams.get('nonce')!, /^[A-Za-z0-9_-]{32}$/);
  });

  test('a first sign-in creates a verified account from the ID token and opens a federated session', async () => {
    upstream.signInAs('g-100');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl());
    assert.equal(landing.status, 302, `${landing.body} ${JSON.stringify(landing.hops.map((h) => [h.status, h.url]))}`);
    assert.equal(landing.location, `${APP}?state=g-state`);
    const session = await sessionOf(browser);
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.user.email, 'ada@example.com');
    assert.equal(session.body.user.email_verified, true);
    assert.equal(session.body.user.given_name, 'Ada');
    assert.equal(session.body.user.family_name, 'Lovelace');
    assert.equal(session.body.user.signup_methods, 'google');
    assert.deepEqual(decodeJwt(session.body.id_token).amr, ['fed']);
  });

  test('a second sign-in logs the same account in', async () => {
    upstream.signInAs('g-100');
    const first = await findUserByEmail(server.app.deps.storage.fork(), 'ada@example.com');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl('second'));
    assert.equal(landing.location, `${APP}?state=second`);
    assert.equal((await sessionOf(browser)).body.user.id, first!.id);
  });

  test('an ID token whose email is not verified never links to an existing proven account', async () => {
    await createUser(server.app.deps.storage.fork(), systemClock, {
      email: 'grace@example.com', signupMethods: ['basic_auth'], roles: ['user'], emailVerifiedAt: new Date(), emailVerifiedVia: 'link',
    });
    upstream.signInAs('g-200');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl());
    assert.equal(landing.status, 409);
    assert.equal((await sessionOf(browser)).status, 401);
  });

  test('an upstream refusal returns to the application with error and its state', async () => {
    upstream.signInAs('deny');
    const landing = await browserFor().navigate(loginUrl('refused'));
    const back = new URL(landing.location!);
    assert.equal(back.origin + back.pathname, APP);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'refused');
  });
});

describe('an OpenID Connect base URL whose discovery document names another issuer', () => {
  test('is refused before the browser is sent anywhere (OpenID Connect Discovery 1.0 section 4.3)', async () => {
    // A look-alike discovery document: everything points here, but the issuer claims to be Google.
    const impostor = createServer((_req, res) => {
      const here = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer: 'https://accounts.google.com', authorization_endpoint: `${here}/auth`, token_endpoint: `${here}/token`, jwks_uri: `${here}/jwks` }));
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    const server = await startServer(['--allowed-origins', '*,https://app.example.com', '--google-client-id', 'c', '--google-client-secret', 's', '--google-base-url', base]);
    try {
      const hop = await new TestBrowser(server.baseUrl, []).request(`${server.baseUrl}/oauth_login/google?redirectURL=${encodeURIComponent(APP)}&state=s`);
      assert.equal(hop.status, 502);
      assert.equal(hop.location, undefined);
      assert.match(hop.body!, /could not be reached/);
    } finally {
      await server.close();
      impostor.closeAllConnections();
      await new Promise<void>((resolve) => impostor.close(() => resolve()));
    }
  });
});
