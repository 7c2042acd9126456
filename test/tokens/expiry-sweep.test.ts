/**
 * The background sweep of expired token records and sessions (tokens/expiry-sweep.ts) on SQLite, PostgreSQL
 * and MariaDB, with an injected clock: it deletes exactly the expired rows, in batches of at most the batch
 * size; a session whose cookie expired stays while a record issued for it has not expired; of two instances
 * one runs at a time. Through a server: a revoked token that has not expired is still refused after a sweep,
 * and a rotated refresh token presented again is still recognised as reuse. The single-use tables
 * (storage/single-use.ts) are swept a bounded batch at a time.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../server/kernel/deps.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import type { Storage } from '../../server/storage/types.ts';
import { SWEEP_BATCH_SIZE, sweepExpiredIfDue } from '../../server/storage/single-use.ts';
import { WorkerLease, createRetentionWorker, type RetentionTask } from '../../server/modules/audit/index.ts';
import { Session } from '../../server/modules/sessions/index.ts';
import { UsedAssertion } from '../../server/modules/clients/trusted-issuer.entity.ts';
import {
  TokenRecord, createExpirySweepWorker, expiredSessionsTask, expiredTokenRecordsTask, refreshTokens, revokeAllForUser, validateToken,
} from '../../server/modules/tokens/index.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { TestClock } from '../support/test-clock.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';
import { createUser, handlerContext, login } from './support.ts';

const MINUTE_MS = 60_000;
const NOW = new Date(Date.UTC(2026, 5, 1, 12));
const at = (minutes: number) => new Date(NOW.getTime() + minutes * MINUTE_MS);
const FAST = { batchSize: 3, pauseMs: 0 };

function depsAt(storage: Storage, now: () => Date): Deps {
  return { storage, config: configFor([]), clock: { now }, logger: silentLogger } as unknown as Deps;
}

function record(tag: string, sessionId: string, expiresAt: Date, revokedAt: Date | null = null) {
  return { id: `${tag}-${randomUUID()}`.slice(0, 64), kind: 'access', userId: randomUUID(), sessionId, familyId: null, expiresAt, revokedAt, rotatedAt: null };
}

function session(tag: string, expiresAt: Date) {
  return {
    id: `${tag}-${randomUUID()}`.slice(0, 64), userId: randomUUID(), roles: ['user'], scope: ['openid'], loginMethod: 'basic_auth',
    createdAt: at(-24 * 60), authTime: at(-24 * 60), expiresAt, revokedAt: null,
  };
}

/** Wraps a task to count the rows each batch deleted. */
function counted(task: RetentionTask, batches: number[]): RetentionTask {
  return {
    ...task,
    pruneBatch: async (em, cutoff, limit, after) => {
      const batch = await task.pruneBatch(em, cutoff, limit, after);
      batches.push(batch.deleted);
      return batch;
    },
  };
}

for (const kind of ['sqlite', 'postgres', 'mariadb'] as const) {
  describe(`expiry sweep on ${kind}`, () => {
    let db: TestDatabase;
    let storage: Storage;

    before(async () => {
      db = await createTestDatabase(kind);
      storage = await openStorage(configFor(db.flags), [TokenRecord, Session, WorkerLease, UsedAssertion], silentLogger, { migrations: [] });
    });
    after(async () => {
      await storage?.close();
      await db?.cleanup();
    });

    test('deletes exactly the expired records and the expired sessions no unexpired record depends on, in batches', async () => {
      const em = storage.fork();
      await em.nativeDelete(TokenRecord, {});
      await em.nativeDelete(Session, {});
      const chained = session('chained', at(-60));
      const deadSessions = Array.from({ length: 4 }, (_, i) => session(`dead-${i}`, at(-10 - i * 60)));
      const liveSessions = [session('live-0', at(60)), session('live-1', at(24 * 60))];
      await em.insertMany(Session, [chained, ...deadSessions, ...liveSessions]);
      // Seven expired records (one revoked); kept: an unexpired one, a revoked unexpired one, and a refresh
      // record of the chained session that outlives its cookie.
      const expired = [
        ...Array.from({ length: 6 }, (_, i) => record(`old-${i}`, deadSessions[i % 4]!.id, at(-1 - i * 7))),
        record('old-revoked', chained.id, at(-5), at(-20)),
      ];
      const kept = [
        record('live', liveSessions[0]!.id, at(30)),
        record('revoked-live', liveSessions[1]!.id, at(30), at(-1)),
        { ...record('chain', chained.id, at(30 * 24 * 60)), kind: 'refresh', familyId: 'family' },
      ];
      await em.insertMany(TokenRecord, [...expired, ...kept]);

      const batches = { records: [] as number[], sessions: [] as number[] };
      const worker = createRetentionWorker('expiry-sweep-test', [
        counted(expiredTokenRecordsTask, batches.records),
        counted(expiredSessionsTask, batches.sessions),
      ], FAST);
      worker.start(depsAt(storage, () => new Date(NOW)));
      assert.deepEqual(await worker.runNow(), { token_records: 7, sessions: 4 });
      await worker.stop();
      assert.deepEqual(batches.records, [3, 3, 1], 'record batches of at most 3 rows');
      assert.deepEqual(batches.sessions, [3, 1], 'the chained session is read and kept, the other four deleted');
      const recordsLeft = (await storage.fork().find(TokenRecord, {})).map((row) => row.id).sort();
      assert.deepEqual(recordsLeft, kept.map((row) => row.id).sort());
      const sessionsLeft = (await storage.fork().find(Session, {})).map((row) => row.id).sort();
      assert.deepEqual(sessionsLeft, [chained, ...liveSessions].map((row) => row.id).sort());
    });

    test('of two instances one runs at a time; stopping hands the lease over', async () => {
      const em = storage.fork();
      await em.nativeDelete(TokenRecord, {});
      await em.nativeDelete(Session, {});
      await em.insertMany(TokenRecord, [record('a', 's', at(-1)), record('b', 's', at(-2))]);
      const first = createExpirySweepWorker(FAST);
      const second = createExpirySweepWorker(FAST);
      first.start(depsAt(storage, () => new Date(NOW)));
      second.start(depsAt(storage, () => new Date(NOW)));
      assert.deepEqual(await first.runNow(), { token_records: 2, sessions: 0 });
      await storage.fork().insertMany(TokenRecord, [record('c', 's', at(-3))]);
      assert.deepEqual(await second.runNow(), {}, 'the first instance holds the lease');
      await first.stop();
      assert.deepEqual(await second.runNow(), { token_records: 1, sessions: 0 });
      await second.stop();
    });

    test('single-use rows: one bounded batch per sweep, the next use takes the next batch of a backlog', async () => {
      const em = storage.fork();
      await em.nativeDelete(UsedAssertion, {});
      const backlog = SWEEP_BATCH_SIZE + 5;
      const rows = Array.from({ length: backlog }, (_, i) => ({ id: `used-${i}-${randomUUID()}`, expiresAt: at(-1 - i) }));
      for (let i = 0; i < rows.length; i += 500) await em.insertMany(UsedAssertion, rows.slice(i, i + 500));
      await em.insertMany(UsedAssertion, [{ id: `live-${randomUUID()}`, expiresAt: at(5) }]);
      const owner = {};
      assert.equal(await sweepExpiredIfDue(storage.fork(), UsedAssertion, owner, NOW), SWEEP_BATCH_SIZE);
      assert.equal(await sweepExpiredIfDue(storage.fork(), UsedAssertion, owner, NOW), 5, 'a full batch leaves the sweep due');
      await em.insertMany(UsedAssertion, [{ id: `late-${randomUUID()}`, expiresAt: at(-1) }]);
      assert.equal(await sweepExpiredIfDue(storage.fork(), UsedAssertion, owner, NOW), 0, 'then not again within the minute');
      assert.equal(await sweepExpiredIfDue(storage.fork(), UsedAssertion, owner, at(1)), 1);
      assert.equal(await storage.fork().count(UsedAssertion, {}), 1);
    });
  });

  describe(`expiry sweep through a server on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    const clock = new TestClock();

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer(db.flags, { clock });
    });
    after(async () => {
      clock.offsetMs = 0;
      await server?.close();
      await db?.cleanup();
    });

    const ctx = () => handlerContext(server.app, server.app.deps.storage.fork());
    const isValid = (token: string) => validateToken(ctx(), token, 'access_token').then(() => true, () => false);
    async function sweep(): Promise<Record<string, number>> {
      const worker = createExpirySweepWorker({ pauseMs: 0 });
      worker.start(server.app.deps);
      try {
        return await worker.runNow();
      } finally {
        await worker.stop();
      }
    }

    test('a revoked token that has not expired is still refused after a sweep; a reused refresh token is still reuse', async () => {
      const user = await createUser(server.app);
      const revoked = await login(server.app, user);
      const offline = await login(server.app, user, { scope: ['openid', 'offline_access'] });
      await server.app.deps.storage.fork().transactional((tx) => revokeAllForUser(tx, clock, user.id));
      const other = await createUser(server.app);
      const chain = await login(server.app, other, { scope: ['openid', 'offline_access'] });
      const rotated = await refreshTokens(ctx(), server.app.deps.storage.fork(), chain.tokens.refresh_token!, {});
      clock.advance(10 * 60);
      const swept = await sweep();
      assert.equal(swept.token_records, 0, `nothing has expired yet: ${JSON.stringify(swept)}`);
      assert.equal(await isValid(revoked.tokens.access_token), false, 'revoked, unexpired, still refused');
      assert.equal(await isValid(offline.tokens.access_token), false);
      assert.ok((await server.app.deps.storage.fork().count(TokenRecord, { userId: user.id })) > 0, 'the revoked records stay');

      // 31 minutes on, the first access tokens have expired and go; the rotated refresh token stays and is reuse.
      clock.advance(21 * 60 + 1);
      assert.ok((await sweep()).token_records! > 0);
      await assert.rejects(refreshTokens(ctx(), server.app.deps.storage.fork(), chain.tokens.refresh_token!, {}), { kind: 'unauthenticated' });
      await assert.rejects(refreshTokens(ctx(), server.app.deps.storage.fork(), rotated.refresh_token!, {}), { kind: 'unauthenticated' },
        'the reuse revoked the family');
    });
  });
}
