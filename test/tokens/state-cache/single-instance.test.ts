/**
 * One instance: once a token and a session cookie have been validated (so their answers sit in the token
 * state cache), every write that ends or changes them is refused by the very next validation
 * (docs/tokens.md#tokens-are-stateful). Over REST, as applications call it.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, type TestServer } from '../../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../../support/admin-client.ts';
import { cookieValue, refreshGrant, restClient } from '../../support/rest-client.ts';
import { User } from '../../../server/modules/users/user.entity.ts';
import { TestClock } from '../../support/test-clock.ts';
import { signedInUser } from '../../support/signed-in-user.ts';

const PASSWORD = 'Str0ng!pass-cache';
const OFFLINE = ['openid', 'email', 'profile', 'offline_access'];

describe('token state cache on one instance: revocation is immediate', () => {
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  let count = 0;
  const clock = new TestClock();

  before(async () => {
    server = await startServer(['--roles', 'user,editor', '--default-roles', 'user'], { clock });
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
  });

  async function signedIn(roles = ['user']) {
    const user = await signedInUser(server, { email: `cache-${++count}@example.com`, password: PASSWORD, profile: { roles }, scope: OFFLINE });
    return {
      email: user.email,
      userId: user.userId,
      access: user.accessToken,
      idToken: user.idToken!,
      refresh: user.refreshToken!,
      cookie: user.sessionCookie!,
      bearer: user.bearer,
    };
  }

  const validate = (token: string, tokenType = 'access_token', roles?: string[]) =>
    api.post('/v1/validate_jwt_token', { token_type: tokenType, token, ...(roles ? { roles } : {}) });
  const validateSession = (cookie: string, roles?: string[]) => api.post('/v1/validate_session', { cookie, ...(roles ? { roles } : {}) });

  /** Validates twice (the second answer comes from memory) and checks both succeed. */
  async function warm(user: Awaited<ReturnType<typeof signedIn>>) {
    for (let i = 0; i < 2; i++) {
      assert.equal((await validate(user.access)).status, 200);
      assert.equal((await validate(user.idToken, 'id_token')).status, 200);
      assert.equal((await validateSession(user.cookie)).status, 200);
    }
  }

  test('the second validation is answered from memory', async () => {
    const user = await signedIn();
    const state = server.app.deps.tokenState!;
    await warm(user);
    const sizes = state.sizes();
    assert.ok(sizes.claims >= 2 && sizes.records >= 2 && sizes.users >= 1 && sizes.sessions >= 1, JSON.stringify(sizes));
  });

  test('logout', async () => {
    const user = await signedIn();
    await warm(user);
    assert.equal((await api.post('/v1/logout', {}, user.bearer)).status, 200);
    assert.equal((await validate(user.access)).status, 401);
    assert.equal((await validate(user.idToken, 'id_token')).status, 401);
    assert.equal((await validateSession(user.cookie)).status, 401);
  });

  test('revoke_access, then enable_access lets a new login validate while the old tokens stay revoked', async () => {
    const user = await signedIn();
    await warm(user);
    assert.equal((await api.post('/v1/admin/revoke_access', { user_id: user.userId }, ADMIN)).status, 200);
    assert.equal((await validate(user.access)).status, 401);
    assert.equal((await validateSession(user.cookie)).status, 401);
    assert.equal((await api.post('/v1/admin/enable_access', { user_id: user.userId }, ADMIN)).status, 200);
    const again = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    assert.equal((await validate(again.body.access_token)).status, 200, 'the cached revoked user was forgotten');
    assert.equal((await validate(user.access)).status, 401);
  });

  test('a user revoked and restored through the unit of work (no bulk statement) is seen at once', async () => {
    const user = await signedIn();
    await warm(user);
    const setRevoked = async (value: Date | null) => {
      const em = server.app.deps.storage.fork();
      const row = await em.findOneOrFail(User, { id: user.userId });
      row.revokedAt = value;
      await em.flush();
    };
    await setRevoked(new Date());
    assert.equal((await validate(user.access)).status, 401);
    assert.equal((await validateSession(user.cookie)).status, 401);
    await setRevoked(null);
    assert.equal((await validate(user.access)).status, 200);
    assert.equal((await validateSession(user.cookie)).status, 200);
  });

  test('deactivate_account', async () => {
    const user = await signedIn();
    await warm(user);
    assert.equal((await api.post('/v1/deactivate_account', {}, user.bearer)).status, 200);
    assert.equal((await validate(user.access)).status, 401);
    assert.equal((await validateSession(user.cookie)).status, 401);
  });

  test('delete_user', async () => {
    const user = await signedIn();
    await warm(user);
    assert.equal((await api.post('/v1/admin/delete_user', { id: user.userId }, ADMIN)).status, 200);
    assert.equal((await validate(user.access)).status, 401);
    assert.equal((await validateSession(user.cookie)).status, 401);
  });

  test('update_user removing a role: the cached user is forgotten, the role fails validation', async () => {
    const user = await signedIn(['user', 'editor']);
    assert.equal((await validate(user.access, 'access_token', ['editor'])).status, 200);
    assert.equal((await validateSession(user.cookie, ['editor'])).status, 200);
    assert.equal((await api.post('/v1/admin/update_user', { id: user.userId, roles: ['user'] }, ADMIN)).status, 200);
    assert.equal((await validate(user.access, 'access_token', ['editor'])).status, 403);
    assert.equal((await validateSession(user.cookie, ['editor'])).status, 403);
    assert.deepEqual((await validate(user.access)).body.claims.roles, ['user']);
  });

  test('update_profile: validate_session answers the profile as it is now', async () => {
    const user = await signedIn();
    await warm(user);
    assert.equal((await api.post('/v1/update_profile', { given_name: 'Grace' }, user.bearer)).status, 200);
    assert.equal((await validateSession(user.cookie)).body.user.given_name, 'Grace');
  });

  test('a password change ends the other sessions, not the caller\'s', async () => {
    const user = await signedIn();
    const other = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    const otherAccess = other.body.access_token as string;
    const otherCookie = cookieValue(other.cookies, 'cookie_session')!;
    await warm(user);
    assert.equal((await validate(otherAccess)).status, 200);
    assert.equal((await validateSession(otherCookie)).status, 200);
    const change = await api.post('/v1/update_profile', { old_password: PASSWORD, new_password: 'N3w!pass-cache', confirm_new_password: 'N3w!pass-cache' }, user.bearer);
    assert.equal(change.status, 200, JSON.stringify(change.body));
    assert.equal((await validate(otherAccess)).status, 401);
    assert.equal((await validateSession(otherCookie)).status, 401);
    assert.equal((await validate(user.access)).status, 200);
  });

  test('revoke (a refresh token): its family\'s access token is refused', async () => {
    const user = await signedIn();
    await warm(user);
    assert.equal((await validate(user.refresh, 'refresh_token')).status, 200);
    assert.equal((await api.post('/v1/revoke', { refresh_token: user.refresh })).status, 200);
    assert.equal((await validate(user.refresh, 'refresh_token')).status, 401);
    assert.equal((await validate(user.access)).status, 401);
  });

  test('refresh rotation refuses the exchanged refresh token; reusing it revokes the new tokens too', async () => {
    const user = await signedIn();
    assert.equal((await validate(user.refresh, 'refresh_token')).status, 200);
    const next = await refreshGrant(server, CLIENT_ID, user.refresh);
    assert.equal(next.status, 200, JSON.stringify(next.body));
    const used = await validate(user.refresh, 'refresh_token');
    assert.equal(used.status, 401);
    assert.match(used.body.message, /already been used/);
    assert.equal((await validate(next.body.access_token)).status, 200);
    assert.equal((await validate(next.body.access_token)).status, 200);
    assert.equal((await refreshGrant(server, CLIENT_ID, user.refresh)).status, 400);
    assert.equal((await validate(next.body.access_token)).status, 401, 'reuse revoked the family');
    assert.equal((await validateSession(user.cookie)).status, 401, 'and its session');
  });

  test('a session refresh ends the old cookie', async () => {
    const user = await signedIn();
    await warm(user);
    const refreshed = await api.post('/v1/session', {}, { cookie: `cookie_session=${user.cookie}` });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal((await validateSession(user.cookie)).status, 401);
    assert.equal((await validate(user.access)).status, 401);
    assert.equal((await validate(refreshed.body.access_token)).status, 200);
  });

  test('an expired token is refused on time though its claims are remembered', async () => {
    const user = await signedIn();
    await warm(user);
    clock.advance(31 * 60);
    try {
      const expired = await validate(user.access);
      assert.equal(expired.status, 401);
      assert.equal(expired.body.message, 'token has expired');
    } finally {
      clock.offsetMs = 0;
    }
  });

  test('a token of another type is refused from memory too', async () => {
    const user = await signedIn();
    await warm(user);
    const wrong = await validate(user.access, 'id_token');
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.message, /expected an ID token/);
  });
});
