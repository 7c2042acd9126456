/**
 * Opens the main database with MikroORM and brings its schema up to date.
 * (First cut: SQLite only; the other kinds are added by the storage work of issue 2.)
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MikroORM, type EntitySchema } from '@mikro-orm/core';
import { SqliteDriver, NodeSqliteDialect } from '@mikro-orm/sql';
import type { Logger } from 'pino';
import type { Config } from '../config/flags.ts';
import type { Storage } from './types.ts';

export async function openStorage(config: Config, entities: readonly EntitySchema[], _logger: Logger): Promise<Storage> {
  const file = config.databaseUrl ?? config.databaseName ?? ':memory:';
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const orm = await MikroORM.init({
    driver: SqliteDriver,
    dbName: file,
    driverOptions: new NodeSqliteDialect(file),
    entities: [...entities],
    discovery: { warnWhenNoEntities: false },
    allowGlobalContext: false,
    debug: false,
  });
  await orm.schema.update({ safe: true });
  return {
    kind: 'sqlite',
    orm,
    fork: () => orm.em.fork(),
    ping: async () => {
      try {
        await orm.em.fork().getConnection().execute('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => orm.close(true),
  };
}
