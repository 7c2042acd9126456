/**
 * Serialises startup migrations between instances that share one database (docs/architecture.md#storage:
 * several instances over one PostgreSQL behave as one server). PostgreSQL uses a session advisory lock,
 * MySQL/MariaDB GET_LOCK, MongoDB a lock document; each is held on its own connection while the schema
 * update and the data migrations run on the pool. SQLite is one process's embedded file: no lock.
 */
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { DatabaseKind } from '../types.ts';

/** Arbitrary fixed key of the PostgreSQL advisory lock ("port" in ASCII). */
const PG_LOCK_KEY = 1_886_351_988;
const NAMED_LOCK = 'portcullis_migrations';
export const LOCK_WAIT_MS = 120_000;
const POLL_MS = 200;

interface PgClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(): void;
}
interface MysqlConnection {
  query(sql: string, params: unknown[], cb: (err: Error | null, rows: Record<string, unknown>[]) => void): void;
  release(): void;
}
interface NativeClientSource {
  getNativeClient(): Promise<unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function lockTimeout(): Error {
  return new Error(`another instance held the migration lock for more than ${LOCK_WAIT_MS / 1000} s`);
}

async function nativeClient(orm: MikroORM): Promise<unknown> {
  return (orm.em.getConnection() as unknown as NativeClientSource).getNativeClient();
}

async function withPgLock<T>(orm: MikroORM, logger: Logger, fn: () => Promise<T>): Promise<T> {
  const pool = (await nativeClient(orm)) as { connect(): Promise<PgClient> };
  const client = await pool.connect();
  try {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      let locked: boolean;
      try {
        const result = await client.query('select pg_try_advisory_lock($1) as locked', [PG_LOCK_KEY]);
        locked = result.rows[0]?.locked === true;
      } catch (err) {
        // Some PostgreSQL-compatible engines lack advisory locks (42883 undefined_function, 0A000 not supported).
        const code = (err as { code?: string }).code;
        if (code !== '42883' && code !== '0A000') throw err;
        logger.warn('this PostgreSQL-compatible database has no advisory locks; migrating without one');
        return await fn();
      }
      if (locked) break;
      if (Date.now() > deadline) throw lockTimeout();
      await sleep(POLL_MS);
    }
    try {
      return await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [PG_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}

function mysqlQuery(conn: MysqlConnection, sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => conn.query(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))));
}

async function withMysqlLock<T>(orm: MikroORM, fn: () => Promise<T>): Promise<T> {
  const pool = (await nativeClient(orm)) as { getConnection(cb: (err: Error | null, conn: MysqlConnection) => void): void };
  const conn = await new Promise<MysqlConnection>((resolve, reject) =>
    pool.getConnection((err, c) => (err ? reject(err) : resolve(c))),
  );
  try {
    const rows = await mysqlQuery(conn, 'select get_lock(?, ?) as locked', [NAMED_LOCK, LOCK_WAIT_MS / 1000]);
    if (Number(rows[0]?.locked) !== 1) throw lockTimeout();
    try {
      return await fn();
    } finally {
      await mysqlQuery(conn, 'select release_lock(?) as released', [NAMED_LOCK]).catch(() => undefined);
    }
  } finally {
    conn.release();
  }
}

interface LockCollection {
  insertOne(doc: object): Promise<unknown>;
  findOne(filter: object): Promise<{ expiresAt?: Date } | null>;
  deleteOne(filter: object): Promise<unknown>;
}

/** MongoDB: an insert of a fixed `_id` succeeds for one instance; a holder that died expires. */
async function withMongoLock<T>(orm: MikroORM, fn: () => Promise<T>): Promise<T> {
  const connection = orm.em.getConnection() as unknown as { getDb(): { collection(name: string): LockCollection } };
  const locks = connection.getDb().collection('portcullis_locks');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await locks.insertOne({ _id: NAMED_LOCK, expiresAt: new Date(Date.now() + LOCK_WAIT_MS) });
      break;
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
      const holder = await locks.findOne({ _id: NAMED_LOCK });
      if (holder?.expiresAt && holder.expiresAt.getTime() < Date.now()) {
        await locks.deleteOne({ _id: NAMED_LOCK, expiresAt: holder.expiresAt });
        continue;
      }
      if (Date.now() > deadline) throw lockTimeout();
      await sleep(POLL_MS);
    }
  }
  try {
    return await fn();
  } finally {
    await locks.deleteOne({ _id: NAMED_LOCK }).catch(() => undefined);
  }
}

export async function withMigrationLock<T>(orm: MikroORM, kind: DatabaseKind, logger: Logger, fn: () => Promise<T>): Promise<T> {
  switch (kind) {
    case 'postgres':
      return withPgLock(orm, logger, fn);
    case 'mysql':
    case 'mariadb':
      return withMysqlLock(orm, fn);
    case 'mongodb':
      return withMongoLock(orm, fn);
    default:
      return fn();
  }
}
