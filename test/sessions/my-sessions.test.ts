/**
 * A user's own sessions (`my_sessions`, `revoke_my_session`, `revoke_my_other_sessions`) on a real server
 * over REST, GraphQL and gRPC: the list shows each session's device and marks the caller's own, whether the
 * caller comes with the cookie or the access token; ending other sessions keeps the caller's and kills the
 * others' tokens at once (validate_jwt_token, the refresh grant, the cookie); ending the current one is a
 * logout; another user's reference is not found; ending another session needs a recent sign-in; each end is
 * audited; an anonymous caller is refused.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { refreshGrant } from '../support/rest-client.ts';
import { CODES, PROTOCOLS, threeProtocols, type Caller } from '../support/three-protocols.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { TestClock } from '../support/test-clock.ts';
import { sha256Hex } from '../../server/kernel/crypto.ts';
import { Session, sessionReference } from '../../server/modules/sessions/index.ts';
import { AuditLog } from '../../server/modules/audit/index.ts';

const PASSWORD = 'Correct-Horse-Battery-9';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface SignedIn {
  accessToken: string;
  refreshToken: string;
  cookie: string;
  reference: string;
}

interface Listed {
  id: string;
  current: boolean;
  user_agent?: string;
  ip_address?: string;
  login_method: string;
  created_at: number;
  last_used_at: number;
}

describe("a user's own sessions", () => {
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

  async function newUser(): Promise<string> {
    const email = `owner-${Math.random().toString(36).slice(2, 10)}@example.com`;
    await signedUpUser(server, { email, password: PASSWORD });
    return email;
  }

  /** A password login from a browser with this User-Agent. */
  async function signIn(email: string, userAgent = FIREFOX): Promise<SignedIn> {
    const reply = await ops.send('rest', 'login', { email, password: PASSWORD, scope: ['openid', 'offline_access'] }, { 'user-agent': userAgent });
    assert.ok(reply.ok, JSON.stringify(reply.body));
    const cookie = reply.cookies.split('; ').find((c) => c.startsWith('cookie_session='))!.slice('cookie_session='.length);
    return { accessToken: reply.body.access_token, refreshToken: reply.body.refresh_token, cookie, reference: sessionReference(sha256Hex(cookie)) };
  }

  const withCookie = (session: SignedIn): Record<string, string> => ({ cookie: `cookie_session=${session.cookie}` });
  const withToken = (session: SignedIn): Caller => ({ bearer: session.accessToken });

  async function tokenIsValid(accessToken: string): Promise<boolean> {
    const answer = await ops.send('rest', 'validate_jwt_token', { token_type: 'access_token', token: accessToken });
    return answer.ok && answer.body.is_valid === true;
  }

  async function listed(caller: Caller): Promise<Listed[]> {
    return (await ops.over('rest', 'my_sessions', { pagination: { limit: 100 } }, caller)).sessions;
  }

  test('lists the sessions newest first with their device, and marks the current one for a cookie and a token alike', async () => {
    const email = await newUser();
    const laptop = await signIn(email, FIREFOX);
    clock.advance(2);
    const phone = await signIn(email, SAFARI);
    for (const protocol of PROTOCOLS) {
      const answer = await ops.over(protocol, 'my_sessions', {}, withCookie(laptop));
      const sessions = answer.sessions as Listed[];
      // The signup's own session is listed too: three in all.
      assert.equal(sessions.length, 3, `${protocol}: ${JSON.stringify(answer)}`);
      assert.equal(answer.pagination.total, 3);
      assert.deepEqual(sessions.slice(0, 2).map((s) => s.id), [phone.reference, laptop.reference], `${protocol}: newest sign-in first`);
      assert.deepEqual(sessions.map((s) => s.current), [false, true, false], `${protocol}: the cookie's session is the current one`);
      assert.equal(sessions[0]!.user_agent, SAFARI);
      assert.equal(sessions[1]!.user_agent, FIREFOX);
      assert.equal(sessions[1]!.ip_address, '127.0.0.1', 'the client address as the request context resolved it');
      assert.equal(sessions[1]!.login_method, 'basic_auth');
      assert.ok(sessions[1]!.last_used_at >= sessions[1]!.created_at);
      assert.ok(sessions[0]!.created_at > sessions[1]!.created_at);
    }
    const byToken = await ops.overAll('my_sessions', {}, withToken(phone));
    assert.deepEqual(byToken.sessions.map((s: Listed) => s.current), [true, false, false], "an access token's session is the current one");
    const text = JSON.stringify(byToken);
    for (const secret of [laptop.cookie, phone.cookie]) {
      assert.ok(!text.includes(secret) && !text.includes(sha256Hex(secret)), 'neither a session token nor its digest is answered');
    }
  });

  test("the admin's list shows the same device fields", async () => {
    const email = await newUser();
    const laptop = await signIn(email, FIREFOX);
    const me = await ops.over('rest', 'profile', {}, withToken(laptop));
    const admin = await ops.overAll('user_sessions', { user_id: me.id, pagination: { limit: 100 } }, 'admin');
    const row = admin.sessions.find((s: { id: string }) => s.id === laptop.reference);
    assert.equal(row.user_agent, FIREFOX);
    assert.equal(row.ip_address, '127.0.0.1');
    assert.equal(typeof row.last_used_at, 'number');
  });

  test('an anonymous caller and a dead session are refused over every protocol', async () => {
    const email = await newUser();
    const session = await signIn(email);
    await ops.over('rest', 'logout', {}, withCookie(session));
    for (const protocol of PROTOCOLS) {
      for (const caller of ['anonymous', withCookie(session), withToken(session)] as Caller[]) {
        for (const [name, input] of [['my_sessions', {}], ['revoke_my_session', { id: session.reference }], ['revoke_my_other_sessions', {}]] as const) {
          const reply = await ops.send(protocol, name, input, caller);
          assert.equal(reply.ok, false, `${protocol} ${name}`);
          assert.equal(reply.code, CODES.unauthenticated[protocol], `${protocol} ${name}: ${JSON.stringify(reply.body)}`);
        }
      }
    }
  });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: revoke_my_other_sessions keeps the current session and ends the others' tokens at once`, async () => {
      const email = await newUser();
      const current = await signIn(email);
      const others = [await signIn(email, SAFARI), await signIn(email, SAFARI)];
      for (const other of others) assert.equal(await tokenIsValid(other.accessToken), true);

      const answer = await ops.over(protocol, 'revoke_my_other_sessions', {}, withCookie(current));
      assert.equal(answer.message, '3 other sessions revoked', 'the two logins and the signup session');

      for (const other of others) {
        assert.equal(await tokenIsValid(other.accessToken), false, 'an access token of an ended session fails validate_jwt_token at once');
        assert.notEqual((await refreshGrant(server, CLIENT_ID, other.refreshToken)).status, 200, 'its refresh token is dead');
        const byCookie = await ops.send('rest', 'profile', {}, withCookie(other));
        assert.equal(byCookie.ok, false, 'its cookie no longer opens');
      }
      assert.equal(await tokenIsValid(current.accessToken), true, 'the current session keeps its tokens');
      const left = await listed(withCookie(current));
      assert.deepEqual(left.map((s) => [s.id, s.current]), [[current.reference, true]]);

      const entries = await server.app.deps.storage.fork().find(AuditLog, { action: 'user.session_revoked', resourceId: { $in: others.map((o) => o.reference) } });
      assert.equal(entries.length, 2, 'each ended session is audited by its reference');
      for (const entry of entries) {
        assert.equal(entry.actorType, 'user');
        assert.ok(!entry.resourceId.includes(sha256Hex(current.cookie)) && !JSON.stringify(entry).includes(others[0]!.cookie));
      }
    });

    test(`${protocol}: revoke_my_session ends one other session by reference, or the current one as a logout`, async () => {
      const email = await newUser();
      const current = await signIn(email);
      const other = await signIn(email, SAFARI);
      const ended = await ops.send(protocol, 'revoke_my_session', { id: other.reference }, withToken(current));
      assert.ok(ended.ok, JSON.stringify(ended.body));
      assert.deepEqual(ended.body, { message: 'session revoked successfully' });
      assert.equal(await tokenIsValid(other.accessToken), false, 'its access token stops at once');
      assert.equal(await tokenIsValid(current.accessToken), true);
      const again = await ops.send(protocol, 'revoke_my_session', { id: other.reference }, withToken(current));
      assert.equal(again.kind, 'not_found', 'an ended session cannot be ended twice');

      const logout = await ops.send(protocol, 'revoke_my_session', { id: current.reference }, withCookie(current));
      assert.ok(logout.ok, JSON.stringify(logout.body));
      assert.deepEqual(logout.body, { message: 'Logged out successfully' });
      if (protocol === 'rest') assert.equal(logout.cookies, '', 'both session cookies are cleared');
      assert.equal(await tokenIsValid(current.accessToken), false, 'the current session is signed out');
      assert.equal((await ops.send('rest', 'profile', {}, withCookie(current))).ok, false);
    });
  }

  test("another user's session reference answers not found and changes nothing", async () => {
    const victim = await signIn(await newUser());
    const attacker = await signIn(await newUser());
    for (const protocol of PROTOCOLS) {
      const reply = await ops.send(protocol, 'revoke_my_session', { id: victim.reference }, withCookie(attacker));
      assert.equal(reply.kind, 'not_found', `${protocol}: ${JSON.stringify(reply.body)}`);
      const unknown = await ops.send(protocol, 'revoke_my_session', { id: 'f'.repeat(32) }, withCookie(attacker));
      assert.equal(unknown.kind, 'not_found', 'the same answer as an unknown reference');
      assert.equal(unknown.message, reply.message);
    }
    assert.equal(await tokenIsValid(victim.accessToken), true, "the other user's session lives on");
    assert.ok(!(await listed(withCookie(attacker))).some((s) => s.id === victim.reference), "nor is it listed to the attacker");
    await ops.over('rest', 'revoke_my_other_sessions', {}, withCookie(attacker));
    assert.equal(await tokenIsValid(victim.accessToken), true, "revoking one's other sessions leaves other users alone");
  });

  test('input is bounded: an empty or overlong reference is invalid_argument', async () => {
    const session = await signIn(await newUser());
    for (const protocol of PROTOCOLS) {
      for (const id of ['', 'x'.repeat(65)]) {
        const reply = await ops.send(protocol, 'revoke_my_session', { id }, withCookie(session));
        assert.equal(reply.code, CODES.invalid[protocol], `${protocol}: ${JSON.stringify(reply.body)}`);
      }
    }
  });

  test('ending another session needs a recent sign-in; ending the current one does not', async () => {
    const email = await newUser();
    const stale = await signIn(email);
    const other = await signIn(email, SAFARI);
    clock.advance(6 * 60);
    for (const protocol of PROTOCOLS) {
      const one = await ops.send(protocol, 'revoke_my_session', { id: other.reference }, withCookie(stale));
      assert.equal(one.code, CODES.forbidden[protocol], `${protocol}: ${JSON.stringify(one.body)}`);
      assert.match(one.message!, /sign in again/);
      const all = await ops.send(protocol, 'revoke_my_other_sessions', {}, withCookie(stale));
      assert.equal(all.code, CODES.forbidden[protocol]);
    }
    assert.equal(await tokenIsValid(other.accessToken), true, 'nothing was ended');
    const fresh = await signIn(email);
    await ops.over('rest', 'revoke_my_session', { id: stale.reference }, withCookie(fresh));
    assert.equal(await tokenIsValid(stale.accessToken), false, 'a fresh sign-in ends the stale session');
    await ops.over('rest', 'revoke_my_session', { id: other.reference }, withCookie(other));
    assert.equal(await tokenIsValid(other.accessToken), false, 'a stale session may still sign itself out');
  });

  test('last use is written at most once a minute per session, and a refresh carries the sign-in time', async () => {
    const email = await newUser();
    const session = await signIn(email);
    const lastUsed = async () => (await listed(withCookie(session))).find((s) => s.current)!;
    const first = await lastUsed();
    assert.equal(first.last_used_at, first.created_at, 'a new session was last used when it opened');

    clock.advance(61);
    const touched = await lastUsed();
    assert.ok(touched.last_used_at >= first.last_used_at + 61, 'a use a minute later is recorded');
    const em = server.app.deps.storage.fork();
    const rowOf = async () => (await em.fork().findOneOrFail(Session, { id: sha256Hex(session.cookie) })) as { lastUsedAt: Date };
    const written = (await rowOf()).lastUsedAt.getTime();

    clock.advance(30);
    for (let i = 0; i < 5; i++) await ops.over('rest', 'profile', {}, withCookie(session));
    assert.equal((await rowOf()).lastUsedAt.getTime(), written, 'uses within the minute write nothing');

    clock.advance(31);
    await ops.over('rest', 'profile', {}, withCookie(session));
    assert.ok((await rowOf()).lastUsedAt.getTime() > written + 60_000, 'the next minute is written again');

    // The session query opens a new row: the sign-in time (created_at) is carried over, the device recorded again.
    clock.advance(120);
    const refreshed = await ops.send('rest', 'session', {}, { ...withCookie(session), 'user-agent': SAFARI });
    assert.ok(refreshed.ok, JSON.stringify(refreshed.body));
    const cookie = refreshed.cookies.split('; ').find((c) => c.startsWith('cookie_session='))!.slice('cookie_session='.length);
    const after = (await listed({ cookie: `cookie_session=${cookie}` })).find((s) => s.current)!;
    assert.equal(after.created_at, first.created_at, 'created_at is the sign-in, kept across refreshes');
    assert.equal(after.user_agent, SAFARI);
    assert.ok(after.last_used_at >= touched.last_used_at + 180);
  });

  test('a bearer access token of the session is a use of it too, written at most once a minute', async () => {
    const session = await signIn(await newUser());
    const em = server.app.deps.storage.fork();
    const lastUsedMs = async () => ((await em.fork().findOneOrFail(Session, { id: sha256Hex(session.cookie) })) as { lastUsedAt: Date }).lastUsedAt.getTime();
    const opened = await lastUsedMs();
    clock.advance(61);
    await ops.over('rest', 'profile', {}, withToken(session));
    const used = await lastUsedMs();
    assert.ok(used >= opened + 61_000, 'a use by access token a minute later is recorded');
    clock.advance(30);
    for (let i = 0; i < 3; i++) await ops.over('grpc', 'profile', {}, withToken(session));
    assert.equal(await lastUsedMs(), used, 'uses within the minute write nothing');
  });
});
