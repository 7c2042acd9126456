/**
 * Absolute session lifetime (OWASP ASVS 3.3.4; tokens/lifetimes.ts): refreshing the session cookie with the
 * `session` query or rotating the refresh token never extends a login past 30 days from the moment the
 * user authenticated, and auth_time stays that moment (OpenID Connect Core 2). Time moves with an injected
 * clock; everything else is a real server on SQLite over HTTP.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { threeProtocols, CODES, type Protocol } from '../support/three-protocols.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { TestClock } from '../support/test-clock.ts';
import { refreshGrant as refreshGrantAt } from '../support/rest-client.ts';

const PASSWORD = 'Str0ng!pass';
const DAY = 24 * 3600;
const THIRTY_DAYS = 30 * DAY;


describe('absolute session lifetime', () => {
  let server: TestServer;
  let ops: ReturnType<typeof threeProtocols>;
  const clock = new TestClock();
  before(async () => {
    server = await startServer([], { clock });
    ops = threeProtocols(server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
  });

  async function signedIn(email: string) {
    await signedUpUser(server, { email, password: PASSWORD });
    const before = Math.floor(clock.now().getTime() / 1000);
    const login = await ops.send('rest', 'login', { email, password: PASSWORD, scope: ['openid', 'email', 'offline_access'] });
    assert.ok(login.ok, JSON.stringify(login.body));
    // The login's own second: a slow login may end in the second after the one it was issued in.
    const loginAt = decodeJwt(login.body.id_token).auth_time as number;
    assert.ok(loginAt >= before && loginAt <= Math.floor(clock.now().getTime() / 1000), 'auth_time is the login');
    return { tokens: login.body, cookie: login.cookies, loginAt };
  }

  const refreshGrant = (refreshToken: string) => refreshGrantAt(server, CLIENT_ID, refreshToken);

  for (const protocol of ['rest', 'graphql'] as Protocol[]) {
    test(`${protocol}: a session refreshed every 20 hours ends 30 days after the login`, async () => {
      const first = await signedIn(`chain-${protocol}@example.com`);
      let cookie = first.cookie;
      let refreshes = 0;
      // 36 refreshes of 20 h = 30 days: every one inside the window works and keeps the original auth_time.
      for (let elapsed = 20 * 3600; elapsed < THIRTY_DAYS; elapsed += 20 * 3600) {
        clock.advance(20 * 3600);
        const next = await ops.send(protocol, 'session', {}, { cookie });
        assert.ok(next.ok, `refresh at ${elapsed / 3600} h: ${JSON.stringify(next.body)}`);
        const id = decodeJwt(next.body.id_token);
        assert.equal(id.auth_time, first.loginAt, 'auth_time stays the original login');
        assert.ok(id.exp! <= first.loginAt + THIRTY_DAYS, 'no token outlives the login');
        cookie = next.cookies;
        refreshes += 1;
      }
      assert.equal(refreshes, 35);
      clock.advance(20 * 3600);
      const late = await ops.send(protocol, 'session', {}, { cookie });
      assert.equal(late.ok, false, 'past 30 days the cookie chain has ended');
      assert.equal(late.code, CODES.unauthenticated[protocol]);
    });
  }

  test('near the absolute end the new cookie, its row and the access token end with the login', async () => {
    const first = await signedIn('near-end@example.com');
    let cookie = first.cookie;
    // Kept alive by a refresh every 20 h up to one hour before the absolute end.
    let elapsed = 0;
    while (elapsed < THIRTY_DAYS - 3600) {
      const step = Math.min(20 * 3600, THIRTY_DAYS - 3600 - elapsed);
      clock.advance(step);
      elapsed += step;
      if (elapsed === THIRTY_DAYS - 3600) break;
      const next = await ops.send('rest', 'session', {}, { cookie });
      assert.ok(next.ok, JSON.stringify(next.body));
      cookie = next.cookies;
    }
    const res = await fetch(`${server.baseUrl}/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: '{}',
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    const maxAge = Number(/Max-Age=(\d+)/i.exec(res.headers.getSetCookie().find((c) => c.startsWith('cookie_session='))!)![1]);
    assert.ok(maxAge <= 3600 && maxAge > 3500, `cookie Max-Age ${maxAge} ends with the login, not 24 h later`);
    assert.ok(body.expires_in <= 1800 && decodeJwt(body.access_token).exp! <= first.loginAt + THIRTY_DAYS);
    clock.advance(3601);
    const latest = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const after = await ops.send('rest', 'profile', {}, { cookie: latest });
    assert.equal(after.code, 'unauthenticated', 'the refreshed session row ends at the absolute end too');
  });

  test('a rotated refresh token never outlives the login; the chain ends at 30 days', async () => {
    const first = await signedIn('refresh-chain@example.com');
    clock.advance(29 * DAY);
    const rotated = await refreshGrant(first.tokens.refresh_token);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const claims = decodeJwt(rotated.body.refresh_token);
    assert.ok(claims.exp! <= first.loginAt + THIRTY_DAYS, `refresh exp ${claims.exp! - first.loginAt} s after login`);
    clock.advance(DAY + 1);
    const refused = await refreshGrant(rotated.body.refresh_token);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'invalid_grant');
  });
});
