/**
 * Startup migrations (docs/architecture.md#storage: schema changes are migrations that run at startup).
 * Under the migration lock: first the schema is brought up to date from the entity metadata (new tables,
 * columns and indexes; `safe` never drops a table or column), then every data migration of the ordered
 * list that is not yet recorded runs, in order, and is recorded. Running it again changes nothing.
 */
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { DatabaseKind } from '../types.ts';
import { SQLITE_PRAGMAS } from '../sqlite-dialect.ts';
import { withMigrationLock } from './migration-lock.ts';
import { MigrationRecord } from './migration-record.entity.ts';
import type { DataMigration } from './types.ts';

export class MigrationError extends Error {}

/** The per-connection durability setting the server runs with (sqlite-dialect.ts). */
const SQLITE_SYNCHRONOUS = SQLITE_PRAGMAS.find((pragma) => /\bsynchronous\b/.test(pragma))!;

async function updateSchema(orm: MikroORM): Promise<void> {
  await orm.schema.update({ safe: true, dropTables: false });
}

/**
 * MikroORM runs the schema update one statement at a time, each its own commit, and a data migration and
 * its record are commits of their own. On SQLite with synchronous = FULL every commit waits for an fsync of
 * the write-ahead log: a new database's hundred-odd CREATE statements took about 750 ms of the first start,
 * most of it waiting for the disk. Migrating runs with synchronous = NORMAL, then FULL is set back before
 * the server takes a request: in WAL mode NORMAL keeps the database consistent and may only lose the last
 * commits after a power loss, never an earlier one without the later ones (SQLite "PRAGMA synchronous",
 * "Write-Ahead Logging"). What is lost is made again by the next start: the schema update compares with
 * the database, and a data migration whose record is lost runs again, as after a crash between the two
 * commits. The next commit under FULL syncs the log with every frame before it.
 */
async function withRelaxedSqliteSync<T>(orm: MikroORM, kind: DatabaseKind, fn: () => Promise<T>): Promise<T> {
  if (kind !== 'sqlite') return fn();
  const connection = orm.em.getConnection();
  await connection.execute('pragma synchronous = normal');
  try {
    return await fn();
  } finally {
    await connection.execute(SQLITE_SYNCHRONOUS);
  }
}

async function appliedIds(orm: MikroORM): Promise<Set<string>> {
  const rows = await orm.em.fork().find(MigrationRecord, {});
  return new Set(rows.map((row) => row.id));
}

async function applyDataMigrations(orm: MikroORM, kind: DatabaseKind, migrations: readonly DataMigration[], logger: Logger): Promise<string[]> {
  const done = await appliedIds(orm);
  const known = new Set(migrations.map((m) => m.id));
  const unknown = [...done].filter((id) => !known.has(id));
  if (unknown.length > 0) {
    logger.warn({ migrations: unknown }, 'the database has migrations this version does not know (was a newer version run on it?)');
  }
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    try {
      await migration.up({ kind, orm, em: orm.em.fork(), logger });
    } catch (err) {
      throw new MigrationError(`data migration ${migration.id} failed: ${(err as Error).message}`, { cause: err });
    }
    const em = orm.em.fork();
    em.create(MigrationRecord, { id: migration.id, appliedAt: new Date() });
    await em.flush();
    applied.push(migration.id);
    logger.info({ migration: migration.id }, 'data migration applied');
  }
  return applied;
}

/** Returns the ids of the data migrations applied by this call (empty when the database was up to date). */
export async function migrateDatabase(orm: MikroORM, kind: DatabaseKind, migrations: readonly DataMigration[], logger: Logger): Promise<string[]> {
  const ids = migrations.map((m) => m.id);
  if (new Set(ids).size !== ids.length) throw new MigrationError('duplicate data migration id in the migration list');
  return withMigrationLock(orm, kind, logger, () =>
    withRelaxedSqliteSync(orm, kind, async () => {
      await updateSchema(orm);
      return applyDataMigrations(orm, kind, migrations, logger);
    }),
  );
}
