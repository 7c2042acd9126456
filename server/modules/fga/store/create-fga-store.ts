/**
 * Which FGA store a server uses (docs/configuration.md: --fga-store, --fga-store-url):
 *
 * - no --fga-store: the main database when it is SQL (its own tables, same connection); with a MongoDB
 *   main database FGA is off (undefined here; the operations then answer failed_precondition);
 * - --fga-store memory: in this process only;
 * - --fga-store sqlite|postgres|mysql (also postgresql, mariadb and the PostgreSQL-compatible kinds
 *   --database-type accepts): a separate database at --fga-store-url (for sqlite a file path), opened
 *   with its own MikroORM instance holding only the FGA entities and migrated at startup like the main one.
 */
import pino, { type Logger } from 'pino';
import type { Config } from '../../../config/flags.ts';
import type { Clock } from '../../../kernel/deps.ts';
import { databaseKind } from '../../../storage/connection-target.ts';
import { openStorage } from '../../../storage/open-storage.ts';
import type { Storage } from '../../../storage/types.ts';
import type { FgaStore } from '../types.ts';
import { FgaModel } from './fga-model.entity.ts';
import { FgaTuple } from './fga-tuple.entity.ts';
import { createMemoryFgaStore } from './memory-store.ts';
import { createSqlFgaStore } from './sql-store.ts';

/** The FGA entities, alone: what a separate --fga-store database holds. */
export const FGA_ENTITIES = [FgaModel, FgaTuple];

export interface CreateFgaStoreOptions {
  logger?: Logger;
  clock?: Clock;
}

/** The --database-* settings of `config` replaced by the --fga-store ones, for openStorage. */
function fgaDatabaseConfig(config: Config, type: string, url: string): Config {
  return {
    ...config,
    databaseType: type,
    databaseUrl: url,
    databaseHost: undefined,
    databasePort: undefined,
    databaseName: undefined,
    databaseUsername: undefined,
    databasePassword: undefined,
    databaseCert: undefined,
    databaseCaCert: undefined,
    databaseCertKey: undefined,
  };
}

/**
 * The FGA store for `config`, or undefined when FGA is off. Throws a one-line Error naming the flag when
 * --fga-store is unusable (an unknown kind, MongoDB, a missing --fga-store-url, an unreachable database).
 */
export async function createFgaStore(
  config: Pick<Config, 'fgaStore' | 'fgaStoreUrl'> & Config,
  storage: Pick<Storage, 'kind' | 'fork' | 'close'>,
  options: CreateFgaStoreOptions = {},
): Promise<FgaStore | undefined> {
  const choice = config.fgaStore?.trim().toLowerCase();
  if (!choice) return storage.kind === 'mongodb' ? undefined : createSqlFgaStore(storage, { clock: options.clock });
  if (choice === 'memory') return createMemoryFgaStore({ clock: options.clock });
  let kind: string;
  try {
    kind = databaseKind(choice);
  } catch {
    throw new Error(`unsupported --fga-store "${config.fgaStore}": use memory, sqlite, postgres or mysql`);
  }
  if (kind === 'mongodb') throw new Error('--fga-store cannot be mongodb: use memory, sqlite, postgres or mysql');
  if (!config.fgaStoreUrl) {
    throw new Error(`--fga-store ${choice} needs --fga-store-url (${kind === 'sqlite' ? 'a file path' : 'a connection URL'})`);
  }
  const logger = options.logger ?? pino({ level: 'silent' });
  let fgaStorage: Storage;
  try {
    fgaStorage = await openStorage(fgaDatabaseConfig(config, choice, config.fgaStoreUrl), FGA_ENTITIES, logger.child({ component: 'fga-store' }), { migrations: [] });
  } catch (err) {
    throw new Error(`--fga-store: ${(err as Error).message}`, { cause: err });
  }
  return createSqlFgaStore(fgaStorage, { clock: options.clock, ownsStorage: true });
}
