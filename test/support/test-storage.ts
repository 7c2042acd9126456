/**
 * Storage on a fresh test database (databases.ts), opened the way the server opens it (flags -> Config ->
 * openStorage), for service-level tests that need no HTTP server.
 */
import type { EntitySchema } from '@mikro-orm/core';
import { openStorage } from '../../server/storage/open-storage.ts';
import type { Storage } from '../../server/storage/types.ts';
import { ENTITIES } from '../../server/modules/entities.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from './databases.ts';

export interface TestDatabaseStorage {
  db: TestDatabase;
  storage: Storage;
  close(): Promise<void>;
}

export async function openTestDatabaseStorage(
  kind: TestDatabaseKind,
  entities: readonly EntitySchema[] = ENTITIES as unknown as EntitySchema[],
): Promise<TestDatabaseStorage> {
  const db = await createTestDatabase(kind);
  const storage = await openStorage(configFor(db.flags), entities, silentLogger);
  return {
    db,
    storage,
    async close() {
      await storage.close();
      await db.cleanup();
    },
  };
}
