/** Storage on a fresh test database with every entity of the server, and a clock tests can move. */
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import { ENTITIES } from '../../server/modules/entities.ts';
import type { Storage } from '../../server/storage/types.ts';

export const STORE_KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];

export interface TestStore {
  db: TestDatabase;
  storage: Storage;
  close(): Promise<void>;
}

export async function openTestStore(kind: TestDatabaseKind): Promise<TestStore> {
  const db = await createTestDatabase(kind);
  const storage = await openStorage(configFor(db.flags), ENTITIES, silentLogger);
  return {
    db,
    storage,
    async close() {
      await storage.close();
      await db.cleanup();
    },
  };
}

export class TestClock {
  #now: number;
  constructor(iso: string) {
    this.#now = Date.parse(iso);
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(seconds: number): void {
    this.#now += seconds * 1000;
  }
}
