/**
 * Social sign-in end to end against a plain OAuth 2.0 upstream on loopback acting as GitHub
 * (support/social-oauth2-upstream.ts): /oauth_login sends the browser upstream with state and PKCE S256,
 * /oauth_callback exchanges the code, reads /user and /user/emails, creates or finds the account, sets the
 * session cookies that /v1/session accepts and lands on the application with its state and no token.
 * Linking to an existing account needs proof on both sides (users/address-proof.ts).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { startOauth2Upstream, type Oauth2Upstream } from '../support/social-oauth2-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { User, createUser, findUserByEmail } from '../../server/modules/users/index.ts';
import { EventOutbox } from '../../server/modules/events/event-outbox.entity.ts';
import { systemClock } from '../../server/kernel/deps.ts';

const APP = 'https://app.example.com/callback';
const CALLBACK = 'http://127.0.0.1:8080/oauth_callback/github';

function loginUrl(server: TestServer, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ redirectURL: APP, state: 'app-state-1', ...params });
  return `${server.baseUrl}/oauth_login/github?${query}`;
}

async function sessionOf(server: TestServer, browser: TestBrowser) {
  return restClient(server).post('/v1/session', {}, { cookie: browser.cookieHeader() });
}

async function eventsFor(server: TestServer, email: string): Promise<string[]> {
  const rows = await server.app.deps.storage.fork().find(EventOutbox, {}, { orderBy: { createdAt: 'asc' } });
  return rows.filter((r) => (r.payload.user as { email?: string } | undefined)?.email === email).map((r) => r.eventName);
}

describe('social sign-in with a plain OAuth 2.0 upstream (github)', () => {
  let upstream: Oauth2Upstream;
  let server: TestServer;
  const browserFor = () => new TestBrowser(server.baseUrl, [upstream.baseUrl]);

  before(async () => {
    upstream = await startOauth2Upstream({ redirectUri: CALLBACK });
    server = await startServer(['--allowed-origins', '*,https://app.example.com', ...upstream.flags()]);
    upstream.accounts.set('octo', { id: 101, login: 'octo', name: 'Octo Cat', email: 'octo@example.com', verified: true });
    upstream.accounts.set('unverified', { id: 102, login: 'unverified', email: 'unverified@example.com', verified: false });
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });

  test('the login step sends the browser upstream with our state, PKCE S256 and the registered callback', async () => {
    const browser = browserFor();
    const hop = await browser.request(loginUrl(server));
    assert.equal(hop.status, 302);
    const location = new URL(hop.location!);
    assert.equal(location.origin + location.pathname, `${upstream.baseUrl}/login/oauth/authorize`);
    assert.equal(location.searchParams.get('client_id'), upstream.clientId);
    assert.equal(location.searchParams.get('redirect_uri'), CALLBACK);
    assert.equal(location.searchParams.get('scope'), 'read:user user:email');
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.match(location.searchParams.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(location.searchParams.get('state')!, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(location.searchParams.get('state'), 'app-state-1', 'the application state is not what goes upstream');
    const binding = hop.setCookies.find((c) => c.startsWith('portcullis_social='))!;
    assert.match(binding, /HttpOnly/);
    assert.match(binding, /SameSite=Lax/);
    assert.match(binding, /Max-Age=600/);
  });

  test('a first sign-in creates the account, opens a session and lands on the application with its state only', async () => {
    upstream.signInAs('octo');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl(server));
    assert.equal(landing.status, 302, landing.body);
    assert.equal(landing.location, `${APP}?state=app-state-1`);
    const exchange = upstream.tokenRequests.at(-1)!;
    assert.equal(exchange.accepted, true, 'the upstream accepted the code with our verifier');
    assert.match(exchange.form.code_verifier!, /^[A-Za-z0-9_-]{43}$/);
    // Counted before /v1/session, which records a user.login of its own when it refreshes the session.
    assert.deepEqual(await eventsFor(server, 'octo@example.com'), ['user.created', 'user.signup', 'user.login']);
    const session = await sessionOf(server, browser);
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.user.email, 'octo@example.com');
    assert.equal(session.body.user.email_verified, true);
    assert.equal(session.body.user.given_name, 'Octo');
    assert.deepEqual(session.body.user.signup_methods.split(','), ['github']);
    assert.deepEqual(session.body.user.roles, ['user']);
    const row = await findUserByEmail(server.app.deps.storage.fork(), 'octo@example.com');
    assert.equal(row!.emailVerifiedVia, 'provider');
  });

  test('a second sign-in logs the same account in (user.login only)', async () => {
    upstream.signInAs('octo');
    const first = await findUserByEmail(server.app.deps.storage.fork(), 'octo@example.com');
    const before = await eventsFor(server, 'octo@example.com');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl(server, { state: 'again' }));
    assert.equal(landing.location, `${APP}?state=again`);
    assert.deepEqual((await eventsFor(server, 'octo@example.com')).slice(before.length), ['user.login']);
    const session = await sessionOf(server, browser);
    assert.equal(session.body.user.id, first!.id);
  });

  test('an upstream error returns to the application with error and its state, and opens no session', async () => {
    upstream.signInAs('deny');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl(server, { state: 'denied-state' }));
    assert.equal(landing.status, 302);
    const back = new URL(landing.location!);
    assert.equal(back.origin + back.pathname, APP);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'denied-state');
    assert.equal((await sessionOf(server, browser)).status, 401);
  });

  test('a used callback, a tampered state and a missing state answer a page, never a redirect', async () => {
    upstream.signInAs('octo');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl(server));
    const callback = landing.hops.find((h) => h.url.includes('/oauth_callback/'))!.url;
    const replay = await browser.request(callback);
    assert.equal(replay.status, 400);
    assert.equal(replay.location, undefined);
    assert.match(replay.body!, /already used or has expired/);

    const fresh = await browser.request(loginUrl(server));
    const upstreamHop = await browser.request(fresh.location!);
    const cb = new URL(browser.resolve(upstreamHop.location!));
    cb.searchParams.set('state', cb.searchParams.get('state')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')));
    const tampered = await browser.request(cb.toString());
    assert.equal(tampered.status, 400);
    assert.equal(tampered.location, undefined);
    cb.searchParams.delete('state');
    const missing = await browser.request(cb.toString());
    assert.equal(missing.status, 400);
    assert.match(missing.body!, /<!doctype html>/);
  });

  test('a callback in another browser fails, and does not burn the flow of the browser that started it', async () => {
    upstream.signInAs('octo');
    const victim = browserFor();
    const started = await victim.request(loginUrl(server, { state: 'mine' }));
    const upstreamHop = await victim.request(started.location!);
    const callback = upstreamHop.location!;
    const attacker = browserFor();
    const stolen = await attacker.request(callback);
    assert.equal(stolen.status, 400);
    assert.match(stolen.body!, /started in another browser/);
    assert.equal((await sessionOf(server, attacker)).status, 401);
    const own = await victim.request(callback);
    assert.equal(own.status, 302);
    assert.equal(own.location, `${APP}?state=mine`);
  });

  test('a redirect target that is not allowed, a missing state or a protected role is refused with a page', async () => {
    const browser = browserFor();
    const refusals: Record<string, string>[] = [
      { redirectURL: 'https://evil.example/steal' },
      { redirectURL: 'javascript:alert(1)' },
      { state: '' },
      { roles: 'admin' },
      { roles: 'nonexistent' },
    ];
    for (const params of refusals) {
      const hop = await browser.request(loginUrl(server, params));
      assert.equal(hop.status, 400, JSON.stringify(params));
      assert.equal(hop.location, undefined);
      assert.ok(!hop.body!.includes('evil.example'), 'nothing of the query is reflected');
    }
    const missing = await browser.request(`${server.baseUrl}/oauth_login/github?state=s`);
    assert.equal(missing.status, 400);
  });

  test('redirect_uri is read when redirectURL is absent (the SDK sends redirect_uri)', async () => {
    upstream.signInAs('octo');
    const browser = browserFor();
    const url = `${server.baseUrl}/oauth_login/github?${new URLSearchParams({ redirect_uri: 'https://app.example.com/sdk', state: 'sdk' })}`;
    const landing = await browser.navigate(url);
    assert.equal(landing.location, 'https://app.example.com/sdk?state=sdk');
  });

  test('a provider without a client id, or an unknown one, answers 404 on both routes', async () => {
    const browser = browserFor();
    for (const path of ['/oauth_login/facebook', '/oauth_login/myspace', '/oauth_callback/facebook?state=x&code=y', '/oauth_login/__proto__', '/oauth_login/constructor']) {
      const hop = await browser.request(`${server.baseUrl}${path}${path.includes('?') ? '&' : '?'}redirectURL=${encodeURIComponent(APP)}&state=s`);
      assert.equal(hop.status, 404, path);
      assert.equal(hop.location, undefined);
    }
  });

  test('an unverified upstream email creates an unverified account but never links to an existing one', async () => {
    upstream.signInAs('unverified');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl(server));
    assert.equal(landing.status, 302);
    const session = await sessionOf(server, browser);
    assert.equal(session.body.user.email, 'unverified@example.com');
    assert.equal(session.body.user.email_verified, false);

    const clock = systemClock;
    await createUser(server.app.deps.storage.fork(), clock, {
      email: 'proven@example.com', signupMethods: ['basic_auth'], roles: ['user'], emailVerifiedAt: new Date(), emailVerifiedVia: 'link',
    });
    upstream.accounts.set('claims-proven', { id: 103, login: 'claims-proven', email: 'proven@example.com', verified: false });
    upstream.signInAs('claims-proven');
    const refused = await browserFor().navigate(loginUrl(server));
    assert.equal(refused.status, 409);
    assert.match(refused.body, /Sign in with your password first/);
  });

  test('a verified upstream email links only to a local account whose email was proven', async () => {
    const storage = server.app.deps.storage;
    const unproven = await createUser(storage.fork(), systemClock, {
      email: 'unproven@example.com', signupMethods: ['basic_auth'], roles: ['user'], emailVerifiedAt: new Date(), emailVerifiedVia: 'unproven',
    });
    const unverified = await createUser(storage.fork(), systemClock, { email: 'plain@example.com', signupMethods: ['basic_auth'], roles: ['user'] });
    const proven = await createUser(storage.fork(), systemClock, {
      email: 'linked@example.com', signupMethods: ['basic_auth'], roles: ['user'], emailVerifiedAt: new Date(), emailVerifiedVia: 'link',
    });
    upstream.accounts.set('u1', { id: 201, login: 'u1', email: 'unproven@example.com', verified: true });
    upstream.accounts.set('u2', { id: 202, login: 'u2', email: 'plain@example.com', verified: true });
    upstream.accounts.set('u3', { id: 203, login: 'u3', email: 'linked@example.com', verified: true });
    for (const login of ['u1', 'u2']) {
      upstream.signInAs(login);
      const browser = browserFor();
      const refused = await browser.navigate(loginUrl(server));
      assert.equal(refused.status, 409, login);
      assert.equal((await sessionOf(server, browser)).status, 401);
    }
    assert.equal((await findUserByEmail(storage.fork(), 'unproven@example.com'))!.signupMethods, 'basic_auth');
    assert.ok(unproven.id && unverified.id);

    upstream.signInAs('u3');
    const browser = browserFor();
    const landing = await browser.navigate(loginUrl(server));
    assert.equal(landing.status, 302, landing.body);
    const session = await sessionOf(server, browser);
    assert.equal(session.body.user.id, proven.id);
    assert.equal(session.body.user.signup_methods, 'basic_auth,github');
  });
});

describe('social sign-in refusals that depend on flags and account state', () => {
  test('with --enable-signup=false no account is created; a revoked account cannot sign in', async () => {
    const upstream = await startOauth2Upstream({ redirectUri: CALLBACK });
    const server = await startServer(['--allowed-origins', '*,https://app.example.com', '--enable-signup=false', ...upstream.flags()]);
    try {
      upstream.accounts.set('newbie', { id: 301, login: 'newbie', email: 'newbie@example.com', verified: true });
      upstream.signInAs('newbie');
      const browser = new TestBrowser(server.baseUrl, [upstream.baseUrl]);
      const refused = await browser.navigate(loginUrl(server));
      assert.equal(refused.status, 403);
      assert.match(refused.body, /Sign-up is closed/);
      assert.equal(await findUserByEmail(server.app.deps.storage.fork(), 'newbie@example.com'), null);

      const em = server.app.deps.storage.fork();
      const user = await createUser(em, systemClock, {
        email: 'revoked@example.com', signupMethods: ['basic_auth'], roles: ['user'], emailVerifiedAt: new Date(), emailVerifiedVia: 'link',
      });
      await em.nativeUpdate(User, { id: user.id }, { revokedAt: new Date() });
      upstream.accounts.set('revoked', { id: 302, login: 'revoked', email: 'revoked@example.com', verified: true });
      upstream.signInAs('revoked');
      const revoked = await new TestBrowser(server.baseUrl, [upstream.baseUrl]).navigate(loginUrl(server));
      assert.equal(revoked.status, 403);
      assert.match(revoked.body, /revoked/);
    } finally {
      await server.close();
      await upstream.close();
    }
  });

  test('the callback spends extra per-IP points: a burst of callbacks is answered 429 with Retry-After', async () => {
    const upstream = await startOauth2Upstream({ redirectUri: CALLBACK });
    const server = await startServer(['--allowed-origins', '*,https://app.example.com', '--rate-limit-rps', '8', '--rate-limit-burst', '0', ...upstream.flags()]);
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${server.baseUrl}/oauth_callback/github?state=forged${i}&code=x`, { redirect: 'manual' });
        statuses.push(res.status);
        if (res.status === 429) retryAfter = res.headers.get('retry-after');
      }
      assert.deepEqual(statuses.slice(0, 1), [400]);
      assert.ok(statuses.includes(429), `statuses ${statuses.join(',')}`);
      assert.ok(retryAfter && Number(retryAfter) >= 1);
    } finally {
      await server.close();
      await upstream.close();
    }
  });
});
