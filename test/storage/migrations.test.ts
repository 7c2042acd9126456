/**
 * Startup migrations on every available kind: ordered data migrations run once and are recorded, a
 * failing one stops startup and runs again next time, two instances starting at once on a shared server
 * serialise on the lock, and migration 0001 removes stale UNIQUE indexes (docs/api-overview.md#versioning).
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { MigrationRecord } from '../../server/storage/migrations/migration-record.entity.ts';
import type { DataMigration } from '../../server/storage/migrations/types.ts';
import { openTestStorage } from './open-test-storage.ts';
import { createStaleUniques, insertContactRows, seedRowCount } from './stale-uniques-fixture.ts';

function recorder(log: string[], id: string, delayMs = 0): DataMigration {
  return {
    id,
    async up() {
      log.push(`start ${id}`);
      if (delayMs) await sleep(delayMs);
      log.push(`end ${id}`);
    },
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`startup migrations on ${kind}`, () => {
    const dbs: TestDatabase[] = [];
    const fresh = async () => {
      const db = await createTestDatabase(kind);
      dbs.push(db);
      return db;
    };
    after(async () => {
      for (const db of dbs) await db.cleanup();
    });

    test('data migrations run once, in list order, and only new ones run later', async () => {
      const db = await fresh();
      const log: string[] = [];
      const first = await openTestStorage(db.flags, { migrations: [recorder(log, 'a'), recorder(log, 'b')] });
      await first.close();
      assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b']);
      const second = await openTestStorage(db.flags, { migrations: [recorder(log, 'a'), recorder(log, 'b'), recorder(log, 'c')] });
      try {
        assert.deepEqual(log.slice(4), ['start c', 'end c']);
        const ids = (await second.fork().find(MigrationRecord, {}, { orderBy: { id: 'asc' } })).map((r) => r.id);
        assert.deepEqual(ids, ['a', 'b', 'c']);
      } finally {
        await second.close();
      }
    });

    test('a failing data migration stops startup, is not recorded, and runs again at the next start', async () => {
      const db = await fresh();
      const failing: DataMigration = { id: 'x', up: async () => { throw new Error('cannot convert row 7'); } };
      await assert.rejects(openTestStorage(db.flags, { migrations: [failing] }), (err: Error) => {
        assert.match(err.message, /cannot migrate the .* database/);
        assert.match(err.message, /data migration x failed: cannot convert row 7/);
        return true;
      });
      const log: string[] = [];
      const storage = await openTestStorage(db.flags, { migrations: [recorder(log, 'x')] });
      await storage.close();
      assert.deepEqual(log, ['start x', 'end x']);
    });

    test('migration 0001 drops stale unique indexes on email and phone number, keeps everything else', async () => {
      const db = await fresh();
      const bare = await openTestStorage(db.flags, { migrations: [] });
      try {
        await createStaleUniques(bare);
        await insertContactRows(bare);
        await assert.rejects(insertContactRows(bare), 'the stale indexes are in force before the migration');
      } finally {
        await bare.close();
      }
      const migrated = await openTestStorage(db.flags);
      try {
        await insertContactRows(migrated);
        await insertContactRows(migrated);
        await assert.rejects(insertContactRows(migrated, 'same-otp').then(() => insertContactRows(migrated, 'same-otp')), 'a unique index on another column stays');
        assert.equal(await seedRowCount(migrated), 1, 'existing rows are kept');
        if (kind === 'sqlite') {
          const rows = await migrated.fork().getConnection().execute(`select name from sqlite_master where type = 'index' and name = 'authorizer_users_nickname_idx'`);
          assert.equal(rows.length, 1, 'the rebuilt table keeps its other indexes');
        }
      } finally {
        await migrated.close();
      }
    });

    if (kind === 'postgres' || kind === 'mariadb' || kind === 'mongodb') {
      test('two instances starting at once serialise on the migration lock', async () => {
        const db = await fresh();
        const log: string[] = [];
        const slow = [recorder(log, 'slow-1', 300), recorder(log, 'slow-2', 100)];
        const [one, two] = await Promise.all([
          openTestStorage(db.flags, { migrations: slow }),
          openTestStorage(db.flags, { migrations: slow }),
        ]);
        try {
          assert.deepEqual(log, ['start slow-1', 'end slow-1', 'start slow-2', 'end slow-2']);
          const ids = (await one.fork().find(MigrationRecord, {}, { orderBy: { id: 'asc' } })).map((r) => r.id);
          assert.deepEqual(ids, ['slow-1', 'slow-2']);
          assert.equal(await two.ping(), true);
        } finally {
          await one.close();
          await two.close();
        }
      });
    }
  });
}
