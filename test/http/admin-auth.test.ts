/**
 * Super-admin authentication over REST (docs/api-overview.md#authentication): the x-service-admin-secret header, the service-admin
 * cookie set by POST /v1/admin/login and renewed by GET /v1/admin/session, logout,
 * --disable-admin-header-auth, the 12 h absolute end and the binding to --admin-secret, and meta's MFA flags.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

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
    // The session call renews the cookie; the renewed one works (the old one for a few seconds more, below).
    const renewed = adminCookieFrom(session).split(';')[0]!;
    assert.notEqual(renewed, pair);
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: renewed } })).status, 200);
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

describe('admin sessions are bounded', () => {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  let db: TestDatabase;
  let server: TestServer;
  before(async () => {
    db = await createTestDatabase('sqlite');
    server = await startServer(db.flags, { clock });
  });
  after(async () => {
    await server?.close();
    await db?.cleanup();
  });

  const loginTo = async (target: TestServer, secret: string) =>
    adminCookieFrom(
      await fetch(`${target.baseUrl}/v1/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: target.baseUrl },
        body: JSON.stringify({ admin_secret: secret }),
      }),
    ).split(';')[0]!;

  test('a renewed cookie keeps working ten seconds for requests already in flight, then no longer', async () => {
    const pair = await loginTo(server, ADMIN_SECRET);
    const renewed = await fetch(`${server.baseUrl}/v1/admin/session`, { headers: { cookie: pair } });
    assert.equal(renewed.status, 200);
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: pair } })).status, 200, 'within the grace');
    clock.offsetMs += 11 * 1000;
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: pair } })).status, 401, 'after the grace');
    const fresh = adminCookieFrom(renewed).split(';')[0]!;
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: fresh } })).status, 200);
  });

  test('renewing every 50 minutes keeps a session for 12 hours from the login, not longer (OWASP ASVS 3.3.4)', async () => {
    let pair = await loginTo(server, ADMIN_SECRET);
    let lastMaxAge = 3600;
    for (let elapsed = 50 * 60; elapsed < 12 * 3600; elapsed += 50 * 60) {
      clock.offsetMs += 50 * 60 * 1000;
      const renewed = await fetch(`${server.baseUrl}/v1/admin/session`, { headers: { cookie: pair } });
      assert.equal(renewed.status, 200, `renewal ${elapsed / 60} min after login`);
      const setCookie = adminCookieFrom(renewed);
      lastMaxAge = Number(/Max-Age=(\d+)/.exec(setCookie)![1]);
      pair = setCookie.split(';')[0]!;
    }
    assert.ok(lastMaxAge <= 20 * 60, `the last renewal's cookie ends with the login's 12 h (Max-Age ${lastMaxAge})`);
    clock.offsetMs += 50 * 60 * 1000;
    const late = await fetch(`${server.baseUrl}/v1/admin/session`, { headers: { cookie: pair } });
    assert.equal(late.status, 401);
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: pair } })).status, 401);
  });

  test('a restart with another --admin-secret ends every admin cookie issued under the old one', async () => {
    const pair = await loginTo(server, ADMIN_SECRET);
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: pair } })).status, 200);
    await server.close();
    const rotated = await startServer([...db.flags, '--admin-secret', 'rotated-admin-secret'], { clock });
    try {
      assert.equal((await fetch(`${rotated.baseUrl}/v1/admin/meta`, { headers: { cookie: pair } })).status, 401);
      assert.equal((await fetch(`${rotated.baseUrl}/v1/admin/session`, { headers: { cookie: pair } })).status, 401);
      const fresh = await loginTo(rotated, 'rotated-admin-secret');
      assert.equal((await fetch(`${rotated.baseUrl}/v1/admin/meta`, { headers: { cookie: fresh } })).status, 200);
    } finally {
      await rotated.close();
    }
    // Back on the old secret, the cookie of the old secret works again only if its row is still there and live:
    // the secret binds the session, the database row alone does not.
    server = await startServer(db.flags, { clock });
    assert.equal((await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { cookie: pair } })).status, 200);
  });
});

describe('meta reports only what is enforced', () => {
  let server: TestServer;
  let withoutTotp: TestServer;
  let withoutMfa: TestServer;
  before(async () => {
    server = await startServer(['--enforce-mfa']);
    withoutTotp = await startServer(['--disable-totp-login']);
    withoutMfa = await startServer(['--disable-mfa']);
  });
  after(async () => {
    await server.close();
    await withoutTotp.close();
    await withoutMfa.close();
  });

  const metaOf = async (on: TestServer) => ({
    meta: await (await fetch(`${on.baseUrl}/v1/meta`)).json(),
    admin: await (await fetch(`${on.baseUrl}/v1/admin/meta`, { headers: { 'x-service-admin-secret': ADMIN_SECRET } })).json(),
  });

  test('with --enforce-mfa: the authenticator app, passkeys and enforcement are on; codes by email and SMS stay off without SMTP or an SMS provider', async () => {
    const { meta, admin } = await metaOf(server);
    for (const flag of ['is_multi_factor_auth_enabled', 'is_totp_mfa_enabled', 'is_webauthn_enabled', 'is_mfa_enforced']) {
      assert.equal(meta[flag], true, flag);
      assert.equal(admin[flag], true, `admin ${flag}`);
    }
    for (const flag of ['is_email_otp_mfa_enabled', 'is_sms_otp_mfa_enabled']) {
      assert.equal(meta[flag], false, flag);
      assert.equal(admin[flag], false, `admin ${flag}`);
    }
    assert.equal(admin.is_multi_factor_auth_service_enabled, true);
  });

  test('--disable-totp-login turns the authenticator app off; --disable-mfa every factor', async () => {
    const { meta: noTotp } = await metaOf(withoutTotp);
    assert.equal(noTotp.is_totp_mfa_enabled, false);
    assert.equal(noTotp.is_mfa_enforced, false, 'not enforced without --enforce-mfa');
    const { meta, admin } = await metaOf(withoutMfa);
    for (const flag of ['is_multi_factor_auth_enabled', 'is_totp_mfa_enabled', 'is_email_otp_mfa_enabled', 'is_sms_otp_mfa_enabled', 'is_webauthn_enabled', 'is_mfa_enforced']) {
      assert.equal(meta[flag], false, flag);
    }
    assert.equal(admin.is_multi_factor_auth_service_enabled, false);
  });
});
