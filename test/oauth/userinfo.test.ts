/**
 * GET and POST /userinfo over real HTTP (OpenID Connect Core 1.0 sections 5.3 and 5.4; RFC 6750): claims by
 * scope, the token as header or form field, RFC 6750 section 3 errors with their WWW-Authenticate challenge,
 * tokens that stop counting (logout, revoked access, expiry, another token type), roles as the user holds
 * them now, CORS for a browser caller, and no caching.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { createUser, login } from '../tokens/support.ts';
import type { UserRow } from '../../server/modules/users/user.entity.ts';

const SPA_ORIGIN = 'https://spa.example.test';

describe('/userinfo', () => {
  let server: TestServer;
  const clock = new TestClock();
  before(async () => {
    server = await startServer(['--roles', 'user,editor', '--allowed-origins', SPA_ORIGIN], { clock });
  });
  after(() => server.close());

  const tokensFor = async (user: UserRow, options: { scope?: string[]; roles?: string[] } = {}) =>
    (await login(server.app, user, options)).tokens;
  const getInfo = (token: string | undefined, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/userinfo`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  const postInfo = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/userinfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });

  async function expectBearerError(res: Response, status: number, error: string | undefined) {
    assert.equal(res.status, status);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const challenge = res.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /^Bearer realm="http:\/\/127\.0\.0\.1:8080"/);
    const body = (await res.json()) as Record<string, string>;
    if (error) {
      assert.match(challenge, new RegExp(`error="${error}"`));
      assert.equal(body.error, error);
    } else {
      assert.doesNotMatch(challenge, /error=/, 'RFC 6750 section 3.1: no error code without a token');
      assert.equal(body.error, undefined);
    }
    assert.equal(typeof body.error_description, 'string');
    return { challenge, body };
  }

  test('GET with a bearer token answers the claims of openid email profile, and nothing of other scopes', async () => {
    const user = await createUser(server.app, {
      middleName: 'King', nickname: 'ada', preferredUsername: 'countess', gender: 'female', birthdate: '1815-12-10',
      picture: 'https://img.example/ada.png', phoneNumber: '+15550100', phoneNumberVerifiedAt: new Date(),
    });
    const tokens = await tokensFor(user);
    const res = await getInfo(tokens.access_token);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const claims = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(claims, {
      sub: user.id,
      given_name: 'Ada',
      family_name: 'Lovelace',
      middle_name: 'King',
      nickname: 'ada',
      preferred_username: 'countess',
      gender: 'female',
      birthdate: '1815-12-10',
      picture: 'https://img.example/ada.png',
      updated_at: Math.floor(user.updatedAt.getTime() / 1000),
      email: user.email,
      email_verified: true,
      role: ['user'],
    }, 'no phone claims without the phone scope');
  });

  test('claims follow the scope: openid alone gives sub and roles; email without profile gives no name; phone adds the number', async () => {
    const user = await createUser(server.app, { emailVerifiedAt: null, phoneNumber: '+15550101' });
    const bare = await (await getInfo((await tokensFor(user, { scope: ['openid'] })).access_token)).json();
    assert.deepEqual(bare, { sub: user.id, role: ['user'] });
    const email = await (await getInfo((await tokensFor(user, { scope: ['openid', 'email'] })).access_token)).json();
    assert.deepEqual(email, { sub: user.id, email: user.email, email_verified: false, role: ['user'] });
    const phone = await (await getInfo((await tokensFor(user, { scope: ['openid', 'phone'] })).access_token)).json();
    assert.deepEqual(phone, { sub: user.id, phone_number: '+15550101', phone_number_verified: false, role: ['user'] });
  });

  test('profile without a stored preferred_username does not fall back to the email address', async () => {
    const user = await createUser(server.app);
    const claims = (await (await getInfo((await tokensFor(user, { scope: ['openid', 'profile'] })).access_token)).json()) as Record<string, unknown>;
    assert.equal(claims.preferred_username, undefined);
    assert.ok(!JSON.stringify(claims).includes(user.email!), 'the email address is only for the email scope');
  });

  test('POST takes the token in the Authorization header or as access_token in a form body, without an Origin', async () => {
    const user = await createUser(server.app);
    const tokens = await tokensFor(user);
    const viaBody = await postInfo({ access_token: tokens.access_token });
    assert.equal(viaBody.status, 200);
    assert.equal(((await viaBody.json()) as Record<string, unknown>).sub, user.id);
    const viaHeader = await postInfo({}, { authorization: `Bearer ${tokens.access_token}` });
    assert.equal(viaHeader.status, 200);
    assert.equal(((await viaHeader.json()) as Record<string, unknown>).sub, user.id);
  });

  test('a token sent by two methods at once is invalid_request (RFC 6750 section 2)', async () => {
    const user = await createUser(server.app);
    const tokens = await tokensFor(user);
    await expectBearerError(await postInfo({ access_token: tokens.access_token }, { authorization: `Bearer ${tokens.access_token}` }), 400, 'invalid_request');
  });

  test('no token: 401 with a bare Bearer challenge; a query-string token is not read', async () => {
    await expectBearerError(await getInfo(undefined), 401, undefined);
    await expectBearerError(await getInfo(undefined, { authorization: 'Basic dXNlcjpwYXNz' }), 401, undefined);
    const user = await createUser(server.app);
    const tokens = await tokensFor(user);
    await expectBearerError(await fetch(`${server.baseUrl}/userinfo?access_token=${tokens.access_token}`), 401, undefined);
  });

  test('garbage, an ID token, a refresh token and a forged signature are invalid_token', async () => {
    const user = await createUser(server.app);
    const tokens = await tokensFor(user, { scope: ['openid', 'email', 'profile', 'offline_access'] });
    await expectBearerError(await getInfo('not-a-jwt'), 401, 'invalid_token');
    await expectBearerError(await getInfo(tokens.id_token), 401, 'invalid_token');
    await expectBearerError(await getInfo(tokens.refresh_token!), 401, 'invalid_token');
    const [header, payload, signature] = tokens.access_token.split('.');
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    await expectBearerError(await getInfo(`${header}.${payload}.${flipped}`), 401, 'invalid_token');
  });

  test('a token stops working at logout, at revoked access and at expiry', async () => {
    const user = await createUser(server.app);
    const loggedOut = await tokensFor(user);
    assert.equal((await getInfo(loggedOut.access_token)).status, 200);
    const logout = await fetch(`${server.baseUrl}/v1/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${loggedOut.access_token}`, origin: 'http://127.0.0.1:8080', 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(logout.status, 200);
    const { body } = await expectBearerError(await getInfo(loggedOut.access_token), 401, 'invalid_token');
    assert.match(body.error_description!, /revoked/);

    const revoked = await tokensFor(user);
    await adminClient(server).ok('revoke_access', { user_id: user.id });
    await expectBearerError(await getInfo(revoked.access_token), 401, 'invalid_token');

    const other = await createUser(server.app);
    const expiring = await tokensFor(other);
    clock.advance(1801);
    try {
      const { body: expired } = await expectBearerError(await getInfo(expiring.access_token), 401, 'invalid_token');
      assert.match(expired.error_description!, /expired/);
    } finally {
      clock.advance(-1801);
    }
  });

  test('an access token granted without openid is insufficient_scope (403)', async () => {
    const user = await createUser(server.app);
    const tokens = await tokensFor(user, { scope: ['email'] });
    const { challenge } = await expectBearerError(await getInfo(tokens.access_token), 403, 'insufficient_scope');
    assert.match(challenge, /scope="openid"/);
  });

  test('roles are the ones the user still holds, not the token copy', async () => {
    const user = await createUser(server.app, { roles: ['user', 'editor'] });
    const tokens = await tokensFor(user, { roles: ['user', 'editor'] });
    assert.deepEqual(((await (await getInfo(tokens.access_token)).json()) as Record<string, unknown>).role, ['user', 'editor']);
    await adminClient(server).ok('update_user', { id: user.id, roles: ['user'] });
    assert.deepEqual(((await (await getInfo(tokens.access_token)).json()) as Record<string, unknown>).role, ['user']);
  });

  test('CORS: a listed origin gets a preflight answer and reads the claims with its bearer token', async () => {
    const preflight = await fetch(`${server.baseUrl}/userinfo`, {
      method: 'OPTIONS',
      headers: { origin: SPA_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), SPA_ORIGIN);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
    const user = await createUser(server.app);
    const res = await getInfo((await tokensFor(user)).access_token, { origin: SPA_ORIGIN });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), SPA_ORIGIN);
    const stranger = await getInfo((await tokensFor(user)).access_token, { origin: 'https://evil.example.test' });
    assert.equal(stranger.headers.get('access-control-allow-origin'), null, 'an unlisted origin gets no CORS answer');
  });

  test('a POST from a foreign origin is not refused by the Origin rule: the bearer token is the only credential', async () => {
    const user = await createUser(server.app);
    const res = await postInfo({ access_token: (await tokensFor(user)).access_token }, { origin: 'https://evil.example.test' });
    assert.equal(res.status, 200);
    const noToken = await postInfo({}, { origin: 'https://evil.example.test', cookie: 'cookie_session=whatever' });
    await expectBearerError(noToken, 401, undefined);
  });
});
