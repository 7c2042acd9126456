/** Storage on a fresh test database with every entity of the server, and a clock tests can move. */
import type { TestDatabaseKind } from '../support/databases.ts';
import { openTestDatabaseStorage, type TestDatabaseStorage } from '../support/test-storage.ts';

export const STORE_KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];

export type TestStore = TestDatabaseStorage;

export function openTestStore(kind: TestDatabaseKind): Promise<TestStore> {
  return openTestDatabaseStorage(kind);
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
