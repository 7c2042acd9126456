/**
 * A fresh, isolated database per call for each kind the storage layer supports, for the storage contract
 * suite and for any test that wants a real server on another database (startServer(db.flags)).
 *
 * - sqlite: a file in a temporary folder.
 * - postgres: CREATE DATABASE portcullis_t_<random> on 127.0.0.1:5432 (user postgres, else root; trust auth).
 * - mariadb: the same on 127.0.0.1:3306 as root with an empty password.
 * - mongodb: only when TEST_MONGODB_URL is set (no MongoDB server can be installed here); a database
 *   named portcullis_t_<random> on that server.
 *
 * PostgreSQL and MariaDB are required: when one is down, createTestDatabase rejects with a message that
 * says how to start it, and the tests that need it fail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MikroORM, type Options } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { MariaDbDriver } from '@mikro-orm/mariadb';
import { MongoClient } from 'mongodb';

export type TestDatabaseKind = 'sqlite' | 'postgres' | 'mariadb' | 'mongodb';

export interface TestDatabase {
  kind: TestDatabaseKind;
  /** The --database-* flags that point a server at this database. */
  flags: string[];
  /** Database name (the file path for SQLite). */
  name: string;
  cleanup(): Promise<void>;
}

const PG_HOST = '127.0.0.1';
const PG_PORT = 5432;
const MARIADB_HOST = '127.0.0.1';
const MARIADB_PORT = 3306;
const PG_USERS = ['postgres', 'root'];

const HOW_TO_START: Record<'postgres' | 'mariadb', string> = {
  postgres: 'start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  mariadb: 'start it with: start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd',
};

/** Every kind the contract suite runs on: the three required ones, plus MongoDB when a URL is given. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];
  if (process.env.TEST_MONGODB_URL) kinds.push('mongodb');
  return kinds;
}

function uniqueName(): string {
  return `portcullis_t_${randomBytes(6).toString('hex')}`;
}

/** Runs statements on a short-lived admin connection to an existing database of the server. */
async function adminExecute(
  driver: typeof PostgreSqlDriver | typeof MariaDbDriver,
  options: { host: string; port: number; user: string; dbName: string },
  statements: string[],
): Promise<void> {
  const config: Partial<Options> = {
    driver,
    ...options,
    entities: [],
    discovery: { warnWhenNoEntities: false, skipSyncDiscovery: false },
    driverOptions: driver === PostgreSqlDriver ? { connectionTimeoutMillis: 3000 } : { connectTimeout: 3000 },
    debug: false,
    colors: false,
  };
  const orm = new MikroORM(config);
  try {
    const connection = orm.em.getConnection();
    for (const sql of statements) await connection.execute(sql);
  } finally {
    await orm.close(true);
  }
}

let pgUser: Promise<string> | undefined;

/** The first of postgres/root that can log in over TCP (CI images differ). */
function findPgUser(): Promise<string> {
  pgUser ??= (async () => {
    const reasons: string[] = [];
    for (const user of PG_USERS) {
      try {
        await adminExecute(PostgreSqlDriver, { host: PG_HOST, port: PG_PORT, user, dbName: 'postgres' }, ['select 1']);
        return user;
      } catch (err) {
        reasons.push(`${user}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    throw new Error(
      `PostgreSQL is required by this test but is not reachable at ${PG_HOST}:${PG_PORT} (${reasons.join('; ')}); ${HOW_TO_START.postgres}`,
    );
  })();
  return pgUser;
}

async function createPostgres(): Promise<TestDatabase> {
  const user = await findPgUser();
  const name = uniqueName();
  const admin = { host: PG_HOST, port: PG_PORT, user, dbName: 'postgres' };
  await adminExecute(PostgreSqlDriver, admin, [`create database ${name}`]);
  return {
    kind: 'postgres',
    name,
    flags: ['--database-type', 'postgres', '--database-url', `postgres://${user}@${PG_HOST}:${PG_PORT}/${name}`],
    cleanup: () => adminExecute(PostgreSqlDriver, admin, [`drop database if exists ${name} with (force)`]),
  };
}

async function createMariaDb(): Promise<TestDatabase> {
  const name = uniqueName();
  const admin = { host: MARIADB_HOST, port: MARIADB_PORT, user: 'root', dbName: 'mysql' };
  try {
    await adminExecute(MariaDbDriver, admin, [`create database ${name}`]);
  } catch (err) {
    throw new Error(
      `MariaDB is required by this test but is not reachable at ${MARIADB_HOST}:${MARIADB_PORT} as root (${(err as Error).message.split('\n')[0]}); ${HOW_TO_START.mariadb}`,
    );
  }
  return {
    kind: 'mariadb',
    name,
    flags: ['--database-type', 'mariadb', '--database-url', `mysql://root@${MARIADB_HOST}:${MARIADB_PORT}/${name}`],
    cleanup: () => adminExecute(MariaDbDriver, admin, [`drop database if exists ${name}`]),
  };
}

function createSqlite(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-db-'));
  const file = join(dir, 'portcullis.db');
  return {
    kind: 'sqlite',
    name: file,
    flags: ['--database-type', 'sqlite', '--database-url', file],
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function createMongo(): TestDatabase {
  const base = process.env.TEST_MONGODB_URL;
  if (!base) throw new Error('MongoDB tests need TEST_MONGODB_URL (for example mongodb://127.0.0.1:27017/?replicaSet=rs0)');
  const name = uniqueName();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    kind: 'mongodb',
    name,
    flags: ['--database-type', 'mongodb', '--database-url', url.toString()],
    cleanup: async () => {
      const client = new MongoClient(url.toString(), { serverSelectionTimeoutMS: 3000 });
      try {
        await client.db(name).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  switch (kind) {
    case 'sqlite':
      return createSqlite();
    case 'postgres':
      return createPostgres();
    case 'mariadb':
      return createMariaDb();
    case 'mongodb':
      return createMongo();
  }
}
