/**
 * The stores the conformance cases run on: the memory store, and the SQL store on fresh SQLite and
 * PostgreSQL databases (test/support/databases.ts) holding only the FGA tables, opened the way a separate
 * --fga-store database is. Each case starts from an empty store: a new memory store, or reset() on SQL.
 */
import type { FgaStore } from '../../server/modules/fga/types.ts';
import { createMemoryFgaStore, createSqlFgaStore, FGA_ENTITIES } from '../../server/modules/fga/store/index.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import type { Storage } from '../../server/storage/types.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';

export interface StoreUnderTest {
  label: string;
  /** An empty store: models and tuples of the previous case gone. */
  fresh(): Promise<FgaStore>;
  close(): Promise<void>;
}

function memoryStore(): StoreUnderTest {
  return { label: 'memory', fresh: async () => createMemoryFgaStore(), close: async () => {} };
}

/**
 * The memory store seen through the optional batch read (TupleSource.readObjectRelations), so the cases
 * also cover the engine's merged reads.
 */
function batchedMemoryStore(): StoreUnderTest {
  return {
    label: 'memory with batched reads',
    fresh: async () => {
      const store = createMemoryFgaStore();
      const readObjectRelations = async (type: string, relation: string, ids: readonly string[]) =>
        (await Promise.all(ids.map((id) => store.readObjectRelation(`${type}:${id}`, relation)))).flat();
      return Object.assign(Object.create(store) as FgaStore, store, { readObjectRelations });
    },
    close: async () => {},
  };
}

function sqlStore(kind: 'sqlite' | 'postgres'): StoreUnderTest {
  let opened: Promise<{ db: TestDatabase; storage: Storage; store: FgaStore }> | undefined;
  const open = () =>
    (opened ??= (async () => {
      const db = await createTestDatabase(kind);
      const storage = await openStorage(configFor(db.flags), FGA_ENTITIES, silentLogger, { migrations: [] });
      return { db, storage, store: createSqlFgaStore(storage) };
    })());
  return {
    label: kind,
    async fresh() {
      const { store } = await open();
      await store.reset();
      return store;
    },
    async close() {
      if (!opened) return;
      const { db, storage, store } = await opened;
      await store.close();
      await storage.close();
      await db.cleanup();
    },
  };
}

export function conformanceStores(only?: string[]): StoreUnderTest[] {
  const all = [memoryStore(), batchedMemoryStore(), sqlStore('sqlite'), sqlStore('postgres')];
  return only ? all.filter((store) => only.includes(store.label)) : all;
}
