/**
 * Admin session operations (`_user_sessions`, `_revoke_session`) on a real server: the admin lists a user's
 * live sessions newest first with pagination and never sees the token or its digest; a user token and an
 * anonymous caller are refused; revoking one session ends it and its tokens on the next call while the
 * user's other session keeps working; the three protocols answer alike.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../support/admin-client.ts';
import { refreshGrant, restClient } from '../support/rest-client.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { threeProtocols } from '../support/three-protocols.ts';
import { loggedIn, signedUpUser } from '../support/signed-in-user.ts';
import { sha256Hex } from '../../server/kernel/crypto.ts';
import { sessionReference } from '../../server/modules/sessions/index.ts';

const PASSWORD = 'Correct-Horse-Battery-9';

interface SignedIn {
  accessToken: string;
  refreshToken: string;
  sessionCookie: string;
}

describe('admin session operations', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  let rest: ReturnType<typeof restClient>;
  let userId: string;
  const email = 'sessions-owner@example.com';

  async function logIn(): Promise<SignedIn> {
    const session = await loggedIn(server, { email, password: PASSWORD, scope: ['openid', 'offline_access'] });
    return { accessToken: session.accessToken, refreshToken: session.refreshToken!, sessionCookie: session.sessionCookie! };
  }

  const listSessions = (body: Record<string, unknown>, headers: Record<string, string> = ADMIN) =>
    rest.post('/v1/admin/user_sessions', body, headers);
  const profileWith = (accessToken: string) => rest.get('/v1/profile', { authorization: `Bearer ${accessToken}` });

  before(async () => {
    server = await startServer();
    grpc = createGrpcClient(server.ports.grpc!);
    rest = restClient(server);
    userId = (await signedUpUser(server, { email, password: PASSWORD })).userId;
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  test('lists live sessions newest first, paginated, without the token or its digest', async () => {
    const first = await logIn();
    const second = await logIn();
    const all = await listSessions({ user_id: userId, pagination: { limit: 100 } });
    assert.equal(all.status, 200, JSON.stringify(all.body));
    const ids = all.body.sessions.map((s: { id: string }) => s.id);
    assert.ok(ids.length >= 2, 'both logins are listed');
    assert.equal(new Set(ids).size, ids.length, 'references are distinct');
    const text = JSON.stringify(all.body);
    for (const secret of [first.sessionCookie, second.sessionCookie]) {
      assert.ok(!text.includes(secret), 'the session token is never answered');
      assert.ok(!text.includes(sha256Hex(secret)), 'nor the digest that keys the row');
      assert.ok(!text.includes(sha256Hex(secret).slice(0, 32)), 'nor a prefix of it');
    }
    const created = all.body.sessions.map((s: { created_at: number }) => s.created_at);
    assert.deepEqual(created, [...created].sort((a: number, b: number) => b - a), 'newest first');
    const session = all.body.sessions[0];
    assert.equal(session.login_method, 'basic_auth');
    assert.ok(session.expires_at > session.created_at);
    assert.equal(session.revoked_at, undefined);

    const page = await listSessions({ user_id: userId, pagination: { limit: 1, page: 2 } });
    assert.deepEqual(page.body.pagination, { limit: 1, page: 2, offset: 1, total: ids.length });
    assert.deepEqual(page.body.sessions.map((s: { id: string }) => s.id), [ids[1]]);
  });

  test('a user token, a session cookie and an anonymous caller are refused', async () => {
    const mine = await logIn();
    assert.equal((await listSessions({ user_id: userId }, {})).status, 401);
    assert.equal((await listSessions({ user_id: userId }, { authorization: `Bearer ${mine.accessToken}` })).status, 401);
    assert.equal((await listSessions({ user_id: userId }, { cookie: `cookie_session=${mine.sessionCookie}` })).status, 401);
    assert.equal((await listSessions({ user_id: userId }, { 'x-service-admin-secret': 'not-the-secret' })).status, 401);
    const revoke = await rest.post('/v1/admin/revoke_session', { user_id: userId, id: 'x' }, { authorization: `Bearer ${mine.accessToken}` });
    assert.equal(revoke.status, 401);
    assert.equal((await profileWith(mine.accessToken)).status, 200, 'the refused calls changed nothing');
  });

  test('revoke_session ends that session and its tokens at once; the other session keeps working', async () => {
    const doomed = await logIn();
    const kept = await logIn();
    assert.equal((await profileWith(doomed.accessToken)).status, 200);
    const before = await listSessions({ user_id: userId, pagination: { limit: 100 } });
    const listed = before.body.sessions as { id: string }[];
    const revokeTarget = findReferenceOf(doomed);
    assert.ok(listed.some((s) => s.id === revokeTarget));

    const revoked = await rest.post('/v1/admin/revoke_session', { user_id: userId, id: revokeTarget }, ADMIN);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.deepEqual(revoked.body, { message: 'session revoked successfully' });
    assert.deepEqual(revoked.cookies, [], "the admin's own cookies are left alone");

    assert.equal((await profileWith(doomed.accessToken)).status, 401, 'its access token stops at the next call');
    assert.equal((await rest.post('/v1/session', {}, { cookie: `cookie_session=${doomed.sessionCookie}` })).status, 401, 'its cookie no longer opens');
    assert.notEqual((await refreshGrant(server, CLIENT_ID, doomed.refreshToken)).status, 200, 'its refresh token is dead');
    assert.equal((await profileWith(kept.accessToken)).status, 200, 'the other session is untouched');

    const after = await listSessions({ user_id: userId, pagination: { limit: 100 } });
    assert.ok(!after.body.sessions.some((s: { id: string }) => s.id === revokeTarget), 'gone from the live list');
    const withRevoked = await listSessions({ user_id: userId, include_revoked: true, pagination: { limit: 100 } });
    const ended = withRevoked.body.sessions.find((s: { id: string }) => s.id === revokeTarget);
    assert.ok(ended?.revoked_at, 'listed with its revocation time when asked');

    const again = await rest.post('/v1/admin/revoke_session', { user_id: userId, id: revokeTarget }, ADMIN);
    assert.equal(again.status, 404, 'a revoked session cannot be revoked twice');
  });

  test("a session reference of another user does not revoke it", async () => {
    const other = await signedUpUser(server, { email: 'someone-else@example.com', password: PASSWORD });
    const mine = await logIn();
    const reference = findReferenceOf(mine);
    const wrongOwner = await rest.post('/v1/admin/revoke_session', { user_id: other.userId, id: reference }, ADMIN);
    assert.equal(wrongOwner.status, 404);
    assert.equal((await profileWith(mine.accessToken)).status, 200);
    assert.equal((await listSessions({ user_id: 'no-such-user' })).status, 404);
  });

  test('the three protocols answer alike', async () => {
    await threeProtocols(server, () => grpc).overAll('user_sessions', { user_id: userId, pagination: { limit: 2, page: 1 } });
  });

  /** The reference the admin list shows for the session a login opened (the row is keyed by the cookie's digest). */
  function findReferenceOf(signedIn: SignedIn): string {
    return sessionReference(sha256Hex(signedIn.sessionCookie));
  }
});
