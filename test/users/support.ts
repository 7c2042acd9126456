/** Storage with the users module's entities on a real test database (databases.ts), for service tests. */
import type { Clock } from '../../server/kernel/deps.ts';
import type { TestDatabaseKind } from '../support/databases.ts';
import { openTestDatabaseStorage, type TestDatabaseStorage } from '../support/test-storage.ts';
import { User } from '../../server/modules/users/user.entity.ts';
import { IdentityClaim } from '../../server/modules/users/identity-claim.entity.ts';

export const REQUIRED_KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];

export type UsersTestStorage = TestDatabaseStorage;

export function openUsersStorage(kind: TestDatabaseKind): Promise<UsersTestStorage> {
  return openTestDatabaseStorage(kind, [User, IdentityClaim]);
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
