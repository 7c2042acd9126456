/**
 * The stateful side of tokens on every database (docs/tokens.md): refresh
 * rotation, reuse of a rotated token revoking its family and session, a concurrent double exchange, logout,
 * revocation of a refresh token, of everything of a user, of the user itself, deletion, expiry and the
 * sweep of dead rows. Records live in the database, so one server's revocation is another's.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { createUser, handlerContext, login } from './support.ts';
import { TestClock } from '../support/test-clock.ts';
import {
  endSession, purgeTokensForUser, refreshTokens, revokeAllForUser, revokeRefreshToken, validateSessionToken, validateToken,
  TokenRecord, InvalidScopeError, createExpirySweepWorker,
} from '../../server/modules/tokens/index.ts';
import { Session } from '../../server/modules/sessions/index.ts';
import { User } from '../../server/modules/users/user.entity.ts';


const OFFLINE = { scope: ['openid', 'email', 'offline_access'] };

for (const kind of testDatabaseKinds()) {
  describe(`token lifecycle on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let second: TestServer;
    const clock = new TestClock();

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer(db.flags, { clock });
      // A second instance on the same database: what one revokes, the other refuses.
      second = await startServer(db.flags, { clock });
    });
    after(async () => {
      await second?.close();
      await server?.close();
      await db?.cleanup();
    });

    const ctx = (s = server) => handlerContext(s.app, s.app.deps.storage.fork());
    const refresh = (token: string, scope?: string[], s = server) =>
      refreshTokens(ctx(s), s.app.deps.storage.fork(), token, { scope });
    const isValid = async (token: string, type: 'access_token' | 'id_token' | 'refresh_token', s = server) =>
      validateToken(ctx(s), token, type).then(() => true, (err) => {
        assert.equal(err.kind, 'unauthenticated');
        return false;
      });
    const sessionIsValid = (raw: string) => validateSessionToken(ctx(), raw).then(() => true, () => false);

    test('a refresh token is exchanged once for a new set in the same family and session', async () => {
      const user = await createUser(server.app);
      const first = await login(server.app, user, OFFLINE);
      const next = await refresh(first.tokens.refresh_token!);
      assert.equal(next.expires_in, 1800);
      assert.deepEqual(next.scope, OFFLINE.scope);
      const a = decodeJwt(first.tokens.refresh_token!);
      const b = decodeJwt(next.refresh_token);
      assert.equal(b.family_id, a.family_id);
      assert.equal(b.nonce, a.nonce);
      assert.notEqual(next.refresh_token, first.tokens.refresh_token);
      assert.equal(await isValid(next.access_token, 'access_token', second), true);
      assert.equal(await isValid(next.id_token, 'id_token'), true);
      assert.equal(await isValid(first.tokens.refresh_token!, 'refresh_token'), false, 'the exchanged token no longer validates');
      const records = await server.app.deps.storage.fork().find(TokenRecord, { userId: user.id });
      assert.equal(new Set(records.map((r) => r.sessionId)).size, 1);
      const third = await refresh(next.refresh_token, undefined, second);
      assert.equal(await isValid(third.access_token, 'access_token'), true);
    });

    test('reusing a rotated refresh token revokes the whole family and its session', async () => {
      const user = await createUser(server.app);
      const first = await login(server.app, user, OFFLINE);
      const next = await refresh(first.tokens.refresh_token!);
      await assert.rejects(refresh(first.tokens.refresh_token!, undefined, second), {
        kind: 'unauthenticated',
        message: /already been used/,
      });
      for (const s of [server, second]) {
        assert.equal(await isValid(next.access_token, 'access_token', s), false, 'the access token of the family fails');
        assert.equal(await isValid(next.id_token, 'id_token', s), false);
        assert.equal(await isValid(first.tokens.access_token, 'access_token', s), false);
      }
      await assert.rejects(refresh(next.refresh_token), { kind: 'unauthenticated' });
      assert.equal(await sessionIsValid(first.sessionToken), false, 'the session of the family ends too');
      // Other sessions of the same user are untouched.
      const other = await login(server.app, user, OFFLINE);
      assert.equal(await isValid(other.tokens.access_token, 'access_token'), true);
    });

    test('two concurrent exchanges of one refresh token: at most one wins, and the family is revoked', async () => {
      const user = await createUser(server.app);
      const { tokens } = await login(server.app, user, OFFLINE);
      // node:sqlite is synchronous: two instances in one process would wait for each other's write lock on
      // one thread, so on SQLite both exchanges go through one instance (separate processes do not have this).
      const other = kind === 'sqlite' ? server : second;
      const results = await Promise.allSettled([refresh(tokens.refresh_token!), refresh(tokens.refresh_token!, undefined, other)]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      assert.ok(won.length <= 1, `${won.length} exchanges succeeded`);
      assert.ok(lost.length >= 1);
      for (const r of lost) assert.equal(r.reason.kind, 'unauthenticated', String(r.reason));
      for (const r of won) {
        const value = (r as PromiseFulfilledResult<Awaited<ReturnType<typeof refresh>>>).value;
        assert.equal(await isValid(value.access_token, 'access_token'), false, 'the winner was revoked with its family');
      }
    });

    test('a refresh may narrow the scope of its access token but not widen it', async () => {
      const user = await createUser(server.app);
      const { tokens } = await login(server.app, user, OFFLINE);
      await assert.rejects(refresh(tokens.refresh_token!, ['openid', 'admin']), InvalidScopeError);
      const narrowed = await refresh(tokens.refresh_token!, ['openid']);
      assert.deepEqual(decodeJwt(narrowed.access_token).scope, ['openid']);
      assert.deepEqual(decodeJwt(narrowed.refresh_token).scope, OFFLINE.scope, 'the refresh token keeps the grant');
    });

    test('logout revokes the session and every token of it at once, on every instance, and clears both cookies', async () => {
      const user = await createUser(server.app);
      const { tokens, sessionToken } = await login(server.app, user, OFFLINE);
      const other = await login(server.app, user, OFFLINE);
      const { sessionId } = await validateSessionToken(ctx(), sessionToken).then((r) => ({ sessionId: r.session.id }));
      const handler = ctx();
      await handler.em.transactional((tx) => endSession(handler, tx, sessionId));
      assert.deepEqual(
        handler.effects.cookies.map((c) => [c.name, c.value, c.maxAge]),
        [['cookie_session', '', 0], ['cookie_session_domain', '', 0]],
      );
      for (const s of [server, second]) {
        assert.equal(await isValid(tokens.access_token, 'access_token', s), false);
        assert.equal(await isValid(tokens.id_token, 'id_token', s), false);
        assert.equal(await isValid(tokens.refresh_token!, 'refresh_token', s), false);
      }
      await assert.rejects(refresh(tokens.refresh_token!), { kind: 'unauthenticated' });
      assert.equal(await sessionIsValid(sessionToken), false);
      assert.equal(await isValid(other.tokens.access_token, 'access_token'), true, 'another session of the user lives on');
    });

    test('revoking a refresh token revokes its family but leaves the session cookie working', async () => {
      const user = await createUser(server.app);
      const { tokens, sessionToken } = await login(server.app, user, OFFLINE);
      assert.equal(await revokeRefreshToken(server.app.deps.storage.fork(), tokens.refresh_token!, clock), true);
      assert.equal(await isValid(tokens.refresh_token!, 'refresh_token'), false);
      assert.equal(await isValid(tokens.access_token, 'access_token'), false);
      await assert.rejects(refresh(tokens.refresh_token!), { kind: 'unauthenticated' });
      assert.equal(await sessionIsValid(sessionToken), true);
      assert.equal(await revokeRefreshToken(server.app.deps.storage.fork(), 'not-a-token', clock), false);
      assert.equal(await revokeRefreshToken(server.app.deps.storage.fork(), tokens.access_token, clock), false);
    });

    test('revokeAllForUser ends every session and token of that user only', async () => {
      const user = await createUser(server.app);
      const bystander = await createUser(server.app);
      const one = await login(server.app, user, OFFLINE);
      const two = await login(server.app, user);
      const theirs = await login(server.app, bystander);
      await server.app.deps.storage.fork().transactional((tx) => revokeAllForUser(tx, clock, user.id));
      for (const set of [one, two]) {
        assert.equal(await isValid(set.tokens.access_token, 'access_token'), false);
        assert.equal(await sessionIsValid(set.sessionToken), false);
      }
      await assert.rejects(refresh(one.tokens.refresh_token!), { kind: 'unauthenticated' });
      assert.equal(await isValid(theirs.tokens.access_token, 'access_token'), true);
      assert.equal(await sessionIsValid(theirs.sessionToken), true);
    });

    test('a revoked, deactivated or deleted user is refused at once, whatever the token records say', async () => {
      for (const change of ['revokedAt', 'deactivatedAt', 'delete'] as const) {
        const user = await createUser(server.app);
        const { tokens, sessionToken } = await login(server.app, user, OFFLINE);
        const em = server.app.deps.storage.fork();
        if (change === 'delete') await em.nativeDelete(User, { id: user.id });
        else await em.nativeUpdate(User, { id: user.id }, { [change]: clock.now() });
        assert.equal(await isValid(tokens.access_token, 'access_token', second), false, change);
        assert.equal(await isValid(tokens.id_token, 'id_token'), false, change);
        assert.equal(await sessionIsValid(sessionToken), false, change);
        await assert.rejects(refresh(tokens.refresh_token!), { kind: 'unauthenticated' }, change);
      }
    });

    test('purgeTokensForUser deletes every session and token row of the user', async () => {
      const user = await createUser(server.app);
      await login(server.app, user, OFFLINE);
      await login(server.app, user);
      const em = server.app.deps.storage.fork();
      assert.ok((await em.count(TokenRecord, { userId: user.id })) > 0);
      await em.transactional((tx) => purgeTokensForUser(tx, user.id));
      assert.equal(await em.fork().count(TokenRecord, { userId: user.id }), 0);
      assert.equal(await em.fork().count(Session, { userId: user.id }), 0);
    });

    test('expiry: access token after 30 min, cookie after 24 h; the refresh chain outlives the cookie; dead rows are swept', async () => {
      const user = await createUser(server.app);
      const { tokens, sessionToken } = await login(server.app, user, OFFLINE);
      const plain = await login(server.app, user);
      clock.advance(31 * 60);
      try {
        await assert.rejects(validateToken(ctx(), tokens.access_token, 'access_token'), { message: 'token has expired' });
        assert.equal(await sessionIsValid(sessionToken), true);
        clock.advance(24 * 3600);
        assert.equal(await sessionIsValid(sessionToken), false);
        const renewed = await refresh(tokens.refresh_token!);
        assert.equal(await isValid(renewed.access_token, 'access_token'), true);
        // The background sweep (tokens/expiry-sweep.ts) deletes the expired records and the session without a
        // live refresh chain.
        const em = server.app.deps.storage.fork();
        const before = await em.count(TokenRecord, { userId: user.id });
        const sweep = createExpirySweepWorker({ pauseMs: 0 });
        sweep.start(server.app.deps);
        await sweep.runNow();
        await sweep.stop();
        await login(server.app, user);
        const fresh = server.app.deps.storage.fork();
        assert.ok((await fresh.count(TokenRecord, { userId: user.id })) < before + 2, 'expired records were deleted');
        const plainSessionGone = (await fresh.count(Session, { userId: user.id })) === 2;
        assert.ok(plainSessionGone, 'the expired session without refresh tokens was deleted, the one with a live chain kept');
        assert.equal(await isValid(plain.tokens.access_token, 'access_token'), false);
        clock.advance(31 * 24 * 3600);
        await assert.rejects(refresh(renewed.refresh_token), { kind: 'unauthenticated', message: 'token has expired' });
      } finally {
        clock.offsetMs = 0;
      }
    });
  });
}
