/**
 * Super-admin authentication over REST (spec part 5): the x-service-admin-secret header, the service-admin
 * cookie set by POST /v1/admin/login and renewed by GET /v1/admin/session, logout, and
 * --disable-admin-header-auth.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';

function adminCookieFrom(res: Response): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('service-admin='));
  assert.ok(cookie, 'expected a service-admin Set-Cookie');
  return cookie;
}

describe('admin authentication over REST', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const login = (secret: string) =>
    fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ admin_secret: secret }),
    });

  test('login sets an HttpOnly SameSite=Strict cookie that opens the admin session', async () => {
    const res = await login(ADMIN_SECRET);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { message: 'admin logged in successfully' });
    const setCookie = adminCookieFrom(res);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.match(setCookie, /Max-Age=3600/);
    assert.ok(!setCookie.includes(ADMIN_SECRET), 'the cookie must not carry the secret');
    const pair = setCookie.split(';')[0]!;
    const session = await fetch(`${server.baseUrl}/v1/admin/session`, { headers: { cookie: pair } });
    assert.equal(session.status, 200);
    assert.ok((await session.json()).message);
    // The session call renews the cookie; the renewed one works and the old one no longer does.
    const renewed = adminCookieFrom(session).split(';')[0]!;
    assert.notEqual(renewed, pair);
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: renewed } })).status, 200);
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: pair } })).status, 401);
  });

  test('a wrong secret answers 401 unauthenticated and sets no cookie', async () => {
    const res = await login('not-the-secret');
    assert.equal(res.status, 401);
    assert.equal((await res.json()).code, 'unauthenticated');
    assert.equal(res.headers.getSetCookie().length, 0);
  });

  test('admin endpoints refuse callers without credentials or with a forged cookie', async () => {
    const none = await fetch(`${server.baseUrl}/v1/admin/meta`);
    assert.equal(none.status, 401);
    assert.equal((await none.json()).code, 'unauthenticated');
    const forged = await fetch(`${server.baseUrl}/v1/admin/session`, { headers: { cookie: 'service-admin=forged' } });
    assert.equal(forged.status, 401);
    const wrongHeader = await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { 'x-service-admin-secret': 'nope' } });
    assert.equal(wrongHeader.status, 401);
  });

  test('the admin header authenticates and admin meta carries the role lists', async () => {
    const res = await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { 'x-service-admin-secret': ADMIN_SECRET } });
    assert.equal(res.status, 200);
    const meta = await res.json();
    assert.deepEqual(meta.roles, ['user']);
    assert.deepEqual(meta.default_roles, ['user']);
    assert.deepEqual(meta.protected_roles, []);
    assert.equal(meta.client_id, 'test-client');
  });

  test('logout clears the cookie and ends the session server-side', async () => {
    const pair = adminCookieFrom(await login(ADMIN_SECRET)).split(';')[0]!;
    const out = await fetch(`${server.baseUrl}/v1/admin/logout`, {
      method: 'POST',
      headers: { cookie: pair, origin: server.baseUrl },
    });
    assert.equal(out.status, 200);
    assert.match(adminCookieFrom(out), /Max-Age=0/);
    const after = await fetch(`${server.baseUrl}/v1/admin/session`, { headers: { cookie: pair } });
    assert.equal(after.status, 401);
  });
});

describe('--disable-admin-header-auth', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--disable-admin-header-auth']);
  });
  after(() => server.close());

  test('the header no longer authenticates but the cookie still does', async () => {
    const header = await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { 'x-service-admin-secret': ADMIN_SECRET } });
    assert.equal(header.status, 401);
    const res = await fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ admin_secret: ADMIN_SECRET }),
    });
    const pair = adminCookieFrom(res).split(';')[0]!;
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: pair } })).status, 200);
  });
});
