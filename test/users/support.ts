/** Storage with the users module's entities on a real test database (databases.ts), for service tests. */
import { tmpdir } from 'node:os';
import pino from 'pino';
import { parseConfig } from '../../server/config/parse.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import type { Storage } from '../../server/storage/types.ts';
import type { Clock } from '../../server/kernel/deps.ts';
import { baseFlags } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { User } from '../../server/modules/users/user.entity.ts';
import { IdentityClaim } from '../../server/modules/users/identity-claim.entity.ts';

export const REQUIRED_KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];

export interface UsersTestStorage {
  db: TestDatabase;
  storage: Storage;
  close(): Promise<void>;
}

export async function openUsersStorage(kind: TestDatabaseKind): Promise<UsersTestStorage> {
  const db = await createTestDatabase(kind);
  const config = parseConfig([...baseFlags(tmpdir()), ...db.flags]);
  const storage = await openStorage(config, [User, IdentityClaim], pino({ level: 'silent' }));
  return {
    db,
    storage,
    async close() {
      await storage.close();
      await db.cleanup();
    },
  };
}

/** A clock that moves one second per reading, so creation order is visible in created_at. */
export function steppingClock(start = Date.UTC(2026, 0, 1)): Clock {
  let t = start;
  return {
    now: () => {
      const now = new Date(t);
      t += 1000;
      return now;
    },
  };
}
