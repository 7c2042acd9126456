/**
 * The FGA stores (docs/api-overview.md#what-portcullis-does): the contract on the memory store, on the main SQLite, PostgreSQL and
 * MariaDB databases, and on separate --fga-store sqlite and postgres databases; plus the --fga-store
 * choices of createFgaStore and the FGA tables' schema (indexes, exact collation, no drift on restart).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import { ENTITIES } from '../../server/modules/entities.ts';
import type { Storage } from '../../server/storage/types.ts';
import type { FgaStore } from '../../server/modules/fga/types.ts';
import { createFgaStore, createMemoryFgaStore, createSqlFgaStore } from '../../server/modules/fga/store/index.ts';
import { storeContract, t } from './store-contract.ts';

describe('memory FGA store', () => {
  const store = createMemoryFgaStore();
  storeContract(() => store, 'memory');
});

for (const kind of ['sqlite', 'postgres', 'mariadb'] as const satisfies TestDatabaseKind[]) {
  describe(`FGA store on the main ${kind} database`, () => {
    let db: TestDatabase;
    let storage: Storage;
    let store: FgaStore;
    before(async () => {
      db = await createTestDatabase(kind);
      storage = await openStorage(configFor(db.flags), ENTITIES, silentLogger);
      const created = await createFgaStore(configFor(db.flags), storage);
      assert.ok(created, 'FGA is on for a SQL main database');
      store = created;
    });
    after(async () => {
      await store?.close();
      await storage?.close();
      await db?.cleanup();
    });

    storeContract(() => store, kind);

    test('the FGA tables are in step with the entities after startup (no schema drift on the next start)', async () => {
      const sql = await storage.orm.schema.getUpdateSchemaSQL({ safe: true, dropTables: false });
      assert.doesNotMatch(sql, /fga_/, sql);
    });

    test('the store shares the main connection and leaves it open when closed', async () => {
      const shared = createSqlFgaStore(storage);
      await shared.writeTuples([t('user:anne', 'viewer', 'document:shared')], []);
      await shared.close();
      assert.equal(await storage.ping(), true);
      assert.equal((await store.readObjectRelation('document:shared', 'viewer')).length, 1);
    });
  });
}

for (const kind of ['sqlite', 'postgres'] as const satisfies TestDatabaseKind[]) {
  describe(`separate --fga-store ${kind} database`, () => {
    let mainDir: string;
    let mainStorage: Storage;
    let fgaDb: TestDatabase;
    let store: FgaStore;
    before(async () => {
      mainDir = mkdtempSync(join(tmpdir(), 'portcullis-fga-main-'));
      const mainFlags = ['--database-type', 'sqlite', '--database-url', join(mainDir, 'main.db')];
      mainStorage = await openStorage(configFor(mainFlags), ENTITIES, silentLogger);
      fgaDb = await createTestDatabase(kind);
      const url = fgaDb.flags[fgaDb.flags.indexOf('--database-url') + 1]!;
      const created = await createFgaStore(configFor([...mainFlags, '--fga-store', kind, '--fga-store-url', url]), mainStorage);
      assert.ok(created);
      store = created;
    });
    after(async () => {
      await store?.close();
      await mainStorage?.close();
      await fgaDb?.cleanup();
      if (mainDir) rmSync(mainDir, { recursive: true, force: true });
    });

    storeContract(() => store, kind);

    test('tuples live in the FGA database, not in the main one', async () => {
      await store.writeTuples([t('user:anne', 'viewer', 'document:separate')], []);
      const mainFga = createSqlFgaStore(mainStorage);
      assert.equal(await mainFga.countTuples(), 0);
      assert.equal(await store.countTuples(), 1);
      if (kind === 'sqlite') assert.ok(existsSync(fgaDb.name), 'the --fga-store-url file was created');
    });
  });
}

describe('createFgaStore choices', () => {
  let dir: string;
  let storage: Storage;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-fga-choice-'));
    storage = await openStorage(configFor(['--database-type', 'sqlite', '--database-url', join(dir, 'main.db')]), ENTITIES, silentLogger);
  });
  after(async () => {
    await storage?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('no --fga-store on a SQL main database: the main database', async () => {
    const store = await createFgaStore(configFor([]), storage);
    assert.equal(store?.kind, 'sqlite');
  });

  test('no --fga-store on a MongoDB main database: FGA is off', async () => {
    const mongoMain = { kind: 'mongodb' as const, fork: storage.fork, close: async () => {} };
    assert.equal(await createFgaStore(configFor([]), mongoMain), undefined);
    const memory = await createFgaStore(configFor(['--fga-store', 'memory']), mongoMain);
    assert.equal(memory?.kind, 'memory', '--fga-store turns it on');
  });

  test('--fga-store memory', async () => {
    const store = await createFgaStore(configFor(['--fga-store', 'memory']), storage);
    assert.equal(store?.kind, 'memory');
  });

  test('unusable --fga-store values are refused with a message naming the flag', async () => {
    await assert.rejects(createFgaStore(configFor(['--fga-store', 'redis']), storage), /^Error: unsupported --fga-store "redis": use memory, sqlite, postgres or mysql$/);
    await assert.rejects(createFgaStore(configFor(['--fga-store', 'mongodb', '--fga-store-url', 'mongodb://x/y']), storage), /--fga-store cannot be mongodb/);
    await assert.rejects(createFgaStore(configFor(['--fga-store', 'sqlite']), storage), /--fga-store sqlite needs --fga-store-url \(a file path\)/);
    await assert.rejects(createFgaStore(configFor(['--fga-store', 'postgres']), storage), /--fga-store postgres needs --fga-store-url \(a connection URL\)/);
  });

  test('an unreachable --fga-store database fails clearly without showing the password', async () => {
    await assert.rejects(
      createFgaStore(configFor(['--fga-store', 'postgres', '--fga-store-url', 'postgres://fga:s3cret-pw@127.0.0.1:1/fga']), storage),
      (err: Error) => {
        assert.match(err.message, /^--fga-store: cannot connect to the PostgreSQL database 127\.0\.0\.1:1\/fga/);
        assert.doesNotMatch(err.message, /s3cret-pw/);
        return true;
      },
    );
  });
});
