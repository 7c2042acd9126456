/**
 * MikroORM options for one connection target. Everything the single executable needs is explicit here:
 * driver classes are imported statically, entities are passed as objects, no config file is looked for,
 * and metadata is discovered synchronously (docs/architecture.md#the-single-executable: no dynamic import()).
 */
import { DateTimeType, MongoNamingStrategy, type EntityMetadata, type EntitySchema, type Options } from '@mikro-orm/core';
import { BoundSqliteDriver } from './sqlite-driver.ts';
import { CachingSqliteDialect } from './sqlite-dialect.ts';
import type { Logger } from 'pino';
import type { ConnectionTarget } from './connection-target.ts';
import { ormLogger } from './orm-logger.ts';
import { releasingOnLossClient } from './pg-lost-client.ts';

/**
 * How long opening a connection, or waiting for one from the pool, may take: at startup before it fails with
 * a clear message, and while the server runs before a request answers "retry later" (503, gRPC UNAVAILABLE)
 * instead of hanging (docs/deployment.md#when-the-database-is-down). PostgreSQL's `pg-pool` applies it to
 * both the connect and the wait for a free client (connectionTimeoutMillis); mysql2 to the connect (its pool
 * has no wait limit, and a refused connect fails its waiter at once); MongoDB to server selection too.
 */
export const CONNECT_TIMEOUT_MS = 2_000;

/**
 * MongoDB keeps a document's key in `_id`; the portable convention (types.ts rule 2) names the primary key
 * property `id` everywhere, so on MongoDB that property is stored as `_id`.
 */
export class PortableMongoNamingStrategy extends MongoNamingStrategy {
  override propertyToColumnName(propertyName: string): string {
    return propertyName === 'id' ? '_id' : super.propertyToColumnName(propertyName);
  }
}

/** Types.ts rule 5: a datetime without an explicit length keeps milliseconds (MariaDB defaults to seconds). */
function millisecondDatetimes(meta: EntityMetadata): void {
  for (const prop of Object.values(meta.properties)) {
    const type: unknown = prop.type;
    const isDatetime =
      type === DateTimeType || type instanceof DateTimeType || (typeof type === 'string' && (type.toLowerCase() === 'datetime' || type === 'Date'));
    if (isDatetime && prop.length === undefined) {
      prop.length = 3;
    }
  }
}

/**
 * A property declared `.collation(EXACT_COLLATION)` compares exactly (case- and accent-sensitive) on every
 * SQL kind: SQLite and PostgreSQL do by default, MySQL and MariaDB default to case-insensitive
 * collations, so there such columns get utf8mb4_bin (used by the FGA tuples: `user:Anne` is not `user:anne`).
 */
export const EXACT_COLLATION = 'exact';

function exactCollations(meta: EntityMetadata, kind: ConnectionTarget['kind']): void {
  for (const prop of Object.values(meta.properties)) {
    if (prop.collation === EXACT_COLLATION) prop.collation = kind === 'mysql' || kind === 'mariadb' ? 'utf8mb4_bin' : undefined;
  }
}

async function sqlDriverOptions(target: ConnectionTarget): Promise<Record<string, unknown>> {
  const base: Record<string, unknown> =
    target.kind === 'postgres'
      ? // pg-pool builds its clients from `Client`: one that leaves the pool when its connection is lost.
        { connectionTimeoutMillis: CONNECT_TIMEOUT_MS, Client: await releasingOnLossClient() }
      : { connectTimeout: CONNECT_TIMEOUT_MS };
  if (target.tls) base.ssl = { ...target.tls };
  return base;
}

function mongoDriverOptions(target: ConnectionTarget): Record<string, unknown> {
  const options: Record<string, unknown> = {
    serverSelectionTimeoutMS: CONNECT_TIMEOUT_MS,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
  };
  if (target.tls) {
    const { rejectUnauthorized, ...material } = target.tls;
    Object.assign(options, { tls: true, tlsAllowInvalidCertificates: !rejectUnauthorized }, material);
  }
  return options;
}

/** Credentials inside a MongoDB URL are used as they are; separate flags are passed as auth options. */
function urlHasCredentials(url: string | undefined): boolean {
  return url !== undefined && /^[a-z+]+:\/\/[^/]*@/i.test(url);
}

function mongoUrl(target: ConnectionTarget): string {
  if (target.url) return target.url;
  return `mongodb://${target.host}:${target.port}/${encodeURIComponent(target.dbName ?? '')}`;
}

/**
 * The drivers of the networked databases are loaded only when asked for: an SQLite deployment never
 * evaluates the PostgreSQL, MySQL and MongoDB client code, which saves start time and memory (the bundle
 * turns these imports into lazy requires).
 */
async function networkDriver(kind: ConnectionTarget['kind']): Promise<NonNullable<Options['driver']>> {
  switch (kind) {
    case 'postgres':
      return (await import('@mikro-orm/postgresql')).PostgreSqlDriver;
    case 'mariadb':
      return (await import('@mikro-orm/mariadb')).MariaDbDriver;
    case 'mongodb':
      return (await import('@mikro-orm/mongodb')).MongoDriver;
    default:
      return (await import('@mikro-orm/mysql')).MySqlDriver;
  }
}

export async function ormOptions(target: ConnectionTarget, entities: readonly EntitySchema[], logger: Logger): Promise<Partial<Options>> {
  const common: Partial<Options> = {
    entities: [...entities],
    discovery: {
      skipSyncDiscovery: false,
      warnWhenNoEntities: false,
      onMetadata: (meta) => {
        millisecondDatetimes(meta);
        exactCollations(meta, target.kind);
      },
    },
    // Tables no entity declares stay out of the schema update's comparison: SQLite's statistics (written by
    // ANALYZE) and the users search index (migrations/0004-users-search-text.ts), whose FTS5 columns have no
    // declared type, which the SQLite introspection cannot read.
    schemaGenerator: { skipTables: [/^sqlite_stat/, /^users_search_text/] },
    preferTs: false,
    allowGlobalContext: false,
    debug: false,
    colors: false,
    loggerFactory: () => ormLogger(logger),
  };
  switch (target.kind) {
    case 'sqlite':
      return { ...common, driver: BoundSqliteDriver, dbName: target.file, driverOptions: new CachingSqliteDialect(target.file!) };
    case 'mongodb':
      return {
        ...common,
        driver: await networkDriver('mongodb'),
        clientUrl: mongoUrl(target),
        dbName: target.dbName,
        user: urlHasCredentials(target.url) ? undefined : target.user,
        password: urlHasCredentials(target.url) ? undefined : target.password,
        namingStrategy: PortableMongoNamingStrategy,
        driverOptions: mongoDriverOptions(target),
      };
    default:
      return {
        ...common,
        driver: await networkDriver(target.kind),
        host: target.host,
        port: target.port,
        dbName: target.dbName,
        user: target.user,
        password: target.password,
        driverOptions: await sqlDriverOptions(target),
      };
  }
}
