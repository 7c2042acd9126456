/**
 * The storage contract (docs/architecture.md#storage: one contract suite runs against every driver that is
 * reachable): the same behaviour on SQLite, PostgreSQL, MariaDB, and MongoDB when TEST_MONGODB_URL is set.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { startServer } from '../support/app.ts';
import { isUniqueViolation } from '../../server/storage/errors.ts';
import { containsIgnoreCase, equalsIgnoreCase } from '../../server/storage/case-insensitive.ts';
import { MigrationRecord } from '../../server/storage/migrations/migration-record.entity.ts';
import { MIGRATIONS } from '../../server/storage/migrations/list.ts';
import type { Storage } from '../../server/storage/types.ts';
import { Gadget } from './contract-entities.ts';
import { openTestStorage } from './open-test-storage.ts';

function gadget(overrides: Partial<{ code: string; email: string; displayName: string | null; count: number; madeAt: Date }> = {}) {
  return {
    id: randomUUID(),
    code: `code-${randomUUID()}`,
    email: 'someone@example.com',
    displayName: null,
    count: 1,
    madeAt: new Date('2024-02-29T23:59:58.123Z'),
    data: { tags: ['a', 'b'] },
    ...overrides,
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`storage contract on ${kind}`, () => {
    let db: TestDatabase;
    let storage: Storage;

    before(async () => {
      db = await createTestDatabase(kind);
      storage = await openTestStorage(db.flags);
    });
    after(async () => {
      await storage?.close();
      await db?.cleanup();
    });

    test('reports its kind and answers ping', async () => {
      assert.equal(storage.kind, kind);
      assert.equal(await storage.ping(), true);
    });

    test('opening again migrates idempotently and keeps the data', async () => {
      const row = gadget({ code: 'kept-across-restarts' });
      const em = storage.fork();
      em.create(Gadget, row);
      await em.flush();
      for (let i = 0; i < 2; i++) {
        const again = await openTestStorage(db.flags);
        try {
          const found = await again.fork().findOne(Gadget, { code: 'kept-across-restarts' });
          assert.equal(found?.id, row.id);
          const records = await again.fork().find(MigrationRecord, {});
          assert.deepEqual(records.map((r) => r.id).sort(), MIGRATIONS.map((m) => m.id).sort());
          if (kind !== 'mongodb') assert.equal(await again.orm.schema.getUpdateSchemaSQL({ safe: true, dropTables: false }), '');
        } finally {
          await again.close();
        }
      }
    });

    test('creates, reads, updates and deletes a row', async () => {
      const row = gadget({ displayName: 'First' });
      const em = storage.fork();
      em.create(Gadget, row);
      await em.flush();

      const read = await storage.fork().findOneOrFail(Gadget, { id: row.id });
      assert.equal(read.displayName, 'First');
      assert.deepEqual(read.data, { tags: ['a', 'b'] });

      const em2 = storage.fork();
      const loaded = await em2.findOneOrFail(Gadget, { id: row.id });
      loaded.displayName = 'Second';
      loaded.count = 42;
      await em2.flush();
      const reread = await storage.fork().findOneOrFail(Gadget, { id: row.id });
      assert.equal(reread.displayName, 'Second');
      assert.equal(reread.count, 42);

      assert.equal(await storage.fork().nativeUpdate(Gadget, { id: row.id }, { count: 7 }), 1);
      assert.equal((await storage.fork().findOneOrFail(Gadget, { id: row.id })).count, 7);

      assert.equal(await storage.fork().nativeDelete(Gadget, { id: row.id }), 1);
      assert.equal(await storage.fork().findOne(Gadget, { id: row.id }), null);
    });

    test('a transaction that throws leaves nothing behind', async () => {
      const code = `rolled-back-${randomUUID()}`;
      await assert.rejects(
        storage.fork().transactional(async (tx) => {
          tx.create(Gadget, gadget({ code }));
          await tx.flush();
          assert.equal(await tx.count(Gadget, { code }), 1);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await storage.fork().count(Gadget, { code }), 0);
    });

    test('datetimes round-trip to the millisecond in UTC', async () => {
      const instants = [new Date('2024-02-29T23:59:58.123Z'), new Date('1999-12-31T00:00:00.001Z'), new Date('2038-01-19T03:14:08.999Z')];
      const ids: string[] = [];
      const em = storage.fork();
      for (const madeAt of instants) ids.push(em.create(Gadget, gadget({ madeAt })).id);
      await em.flush();
      for (const [i, id] of ids.entries()) {
        const row = await storage.fork().findOneOrFail(Gadget, { id });
        assert.ok(row.madeAt instanceof Date);
        assert.equal(row.madeAt.toISOString(), instants[i]!.toISOString());
      }
      const later = await storage.fork().find(Gadget, { id: { $in: ids }, madeAt: { $gt: new Date('2024-02-29T23:59:58.122Z') } });
      assert.deepEqual(later.map((r) => r.id).sort(), [ids[0], ids[2]].sort());
    });

    test('isUniqueViolation recognises a real duplicate key and nothing else', async () => {
      const em = storage.fork();
      em.create(Gadget, gadget({ code: 'duplicate-me' }));
      await em.flush();
      const em2 = storage.fork();
      em2.create(Gadget, gadget({ code: 'duplicate-me' }));
      const err = await em2.flush().then(() => undefined, (e: unknown) => e);
      assert.ok(err, 'the duplicate insert must fail');
      assert.equal(isUniqueViolation(err), true);
      assert.equal(isUniqueViolation(new Error('something else')), false);
      assert.equal(isUniqueViolation(undefined), false);
    });

    test('case-insensitive equality and substring filters', async () => {
      const em = storage.fork();
      const mixed = em.create(Gadget, gadget({ email: 'Ada.Lovelace@Example.COM', displayName: 'Countess of Lovelace' }));
      const literal = em.create(Gadget, gadget({ email: 'under_score%percent@example.com', displayName: 'Odd' }));
      const other = em.create(Gadget, gadget({ email: 'charles@example.com', displayName: 'Babbage' }));
      await em.flush();
      const ids = { $in: [mixed.id, literal.id, other.id] };
      const find = async (where: object) => (await storage.fork().find(Gadget, { id: ids, ...where })).map((r) => r.id).sort();

      assert.deepEqual(await find(equalsIgnoreCase(storage.fork(), Gadget, 'email', 'ada.lovelace@example.com')), [mixed.id]);
      assert.deepEqual(await find(equalsIgnoreCase(storage.fork(), Gadget, 'email', 'ADA.LOVELACE@EXAMPLE.COM')), [mixed.id]);
      assert.deepEqual(await find(equalsIgnoreCase(storage.fork(), Gadget, 'email', 'ada.lovelace@example')), []);
      assert.deepEqual(await find(containsIgnoreCase(storage.fork(), Gadget, 'displayName', 'LOVELACE')), [mixed.id]);
      assert.deepEqual(await find(containsIgnoreCase(storage.fork(), Gadget, 'email', 'EXAMPLE.com')), [mixed.id, literal.id, other.id].sort());
      // Wildcards in the user's text match literally.
      assert.deepEqual(await find(containsIgnoreCase(storage.fork(), Gadget, 'email', '_score%p')), [literal.id]);
      assert.deepEqual(await find(containsIgnoreCase(storage.fork(), Gadget, 'email', '%')), [literal.id]);
      assert.deepEqual(await find(containsIgnoreCase(storage.fork(), Gadget, 'email', '.*')), []);
      const either = { $or: [containsIgnoreCase(storage.fork(), Gadget, 'email', 'CHARLES'), containsIgnoreCase(storage.fork(), Gadget, 'displayName', 'odd')] };
      assert.deepEqual(await find(either), [literal.id, other.id].sort());
      assert.equal(await storage.fork().count(Gadget, { id: ids, ...equalsIgnoreCase(storage.fork(), Gadget, 'email', 'Charles@Example.com') }), 1);
    });

    test('ping answers false after close, and close is idempotent', async () => {
      const extra = await openTestStorage(db.flags);
      assert.equal(await extra.ping(), true);
      await extra.close();
      assert.equal(await extra.ping(), false);
      await extra.close();
    });

    test('a server on this database answers GET /healthz with 200', async () => {
      const server = await startServer(db.flags);
      try {
        const res = await fetch(`${server.baseUrl}/healthz`);
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), { status: 'ok' });
        assert.equal(server.app.deps.storage.kind, kind);
      } finally {
        await server.close();
      }
    });
  });
}
