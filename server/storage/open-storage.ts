/**
 * Opens the main database for --database-type (docs/configuration.md#defaults:
 * sqlite, postgres and its wire-compatible engines, mysql, mariadb, mongodb), checks that it answers,
 * and migrates it (migrations/run-migrations.ts) before the server takes requests.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MikroORM, type EntitySchema } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Config } from '../config/flags.ts';
import type { DatabaseKind, Storage } from './types.ts';
import { connectionTarget, type ConnectionTarget } from './connection-target.ts';
import { ormOptions } from './orm-options.ts';
import { describeDriverError, redactSecrets } from './errors.ts';
import { pingDatabase } from './ping.ts';
import { MigrationRecord } from './migrations/migration-record.entity.ts';
import { migrateDatabase } from './migrations/run-migrations.ts';
import { MIGRATIONS } from './migrations/list.ts';
import type { DataMigration } from './migrations/types.ts';

const KIND_NAMES: Record<DatabaseKind, string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  mongodb: 'MongoDB',
};

export interface OpenStorageOptions {
  /** Data migrations to apply (tests pass their own); defaults to migrations/list.ts. */
  migrations?: readonly DataMigration[];
}

function failure(target: ConnectionTarget, what: string, err: unknown): Error {
  const reason = redactSecrets(describeDriverError(err), target.secrets);
  return new Error(`${what} ${KIND_NAMES[target.kind]} database ${redactSecrets(target.label, target.secrets)}: ${reason}`);
}

async function isMariaDbServer(orm: MikroORM): Promise<boolean> {
  const rows = (await orm.em.fork().getConnection().execute('select version() as version')) as { version?: string }[];
  return /mariadb/i.test(String(rows[0]?.version ?? ''));
}

async function connect(target: ConnectionTarget, entities: readonly EntitySchema[], logger: Logger): Promise<{ orm: MikroORM; kind: DatabaseKind }> {
  if (target.kind !== 'sqlite' && !target.dbName) {
    throw new Error(`no ${KIND_NAMES[target.kind]} database name: give --database-name or put it in --database-url`);
  }
  let orm: MikroORM | undefined;
  try {
    if (target.kind === 'sqlite' && target.file !== ':memory:') mkdirSync(dirname(resolve(target.file!)), { recursive: true });
    orm = new MikroORM(await ormOptions(target, [...entities, MigrationRecord], logger));
    await orm.connect();
    const check = await orm.checkConnection();
    if (!check.ok) throw check.error ?? new Error(check.reason);
    // SQLite's per-connection settings (WAL, synchronous, busy timeout) are applied by sqlite-dialect.ts.
    if (target.kind !== 'mysql' || !(await isMariaDbServer(orm))) return { orm, kind: target.kind };
  } catch (err) {
    await orm?.close(true).catch(() => undefined);
    throw failure(target, 'cannot connect to the', err);
  }
  // Many "MySQL" services are MariaDB; MikroORM's MySQL dialect misreads MariaDB's JSON columns on the
  // second schema update, so the MariaDB driver is used for them.
  await orm.close(true);
  logger.info('--database-type mysql points at a MariaDB server; using the MariaDB driver');
  return connect({ ...target, kind: 'mariadb' }, entities, logger);
}

export async function openStorage(
  config: Config,
  entities: readonly EntitySchema[],
  logger: Logger,
  options: OpenStorageOptions = {},
): Promise<Storage> {
  const target = connectionTarget(config);
  const { orm, kind } = await connect(target, entities, logger);
  try {
    const applied = await migrateDatabase(orm, kind, options.migrations ?? MIGRATIONS, logger);
    logger.info({ database: kind, target: redactSecrets(target.label, target.secrets), applied }, 'database ready');
  } catch (err) {
    await orm.close(true).catch(() => undefined);
    throw failure({ ...target, kind }, 'cannot migrate the', err);
  }
  let closed = false;
  return {
    kind,
    orm,
    fork: () => orm.em.fork(),
    ping: async () => !closed && (await pingDatabase(orm)),
    async close() {
      if (closed) return;
      closed = true;
      await orm.close(true);
    },
  };
}
