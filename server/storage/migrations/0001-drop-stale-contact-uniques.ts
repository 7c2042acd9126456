/**
 * docs/api-overview.md#versioning: database-level UNIQUE constraints on email and phone_number of the user
 * and OTP tables were dropped in favour of service-side uniqueness; upgraded servers remove stale unique
 * objects automatically at startup. This finds single-column unique indexes or constraints on those
 * columns (never a primary key) and drops them. Where the tables do not exist it does nothing.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { DataMigration, MigrationContext } from './types.ts';
import { dropSqliteContactUniques } from './sqlite-drop-unique.ts';

/** User and OTP tables: this server's, and those of the released line a database may be upgraded from. */
export const CONTACT_TABLES = ['users', 'otps', 'authorizer_users', 'authorizer_otps'];
/** Column (SQL) or field (MongoDB keeps camelCase property names) names whose uniqueness is service-side. */
export const CONTACT_COLUMNS = ['email', 'phone_number', 'phoneNumber'];

type Row = Record<string, unknown>;

function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

async function query(em: EntityManager, sql: string, params: unknown[] = []): Promise<Row[]> {
  return (await em.getConnection().execute(sql, params, 'all')) as Row[];
}

async function dropPostgres(ctx: MigrationContext): Promise<void> {
  const { em } = ctx;
  const rows = await query(
    em,
    `select t.relname as table_name, i.relname as index_name, n.nspname as schema_name, c.conname as constraint_name
       from pg_index x
       join pg_class t on t.oid = x.indrelid
       join pg_class i on i.oid = x.indexrelid
       join pg_namespace n on n.oid = t.relnamespace
       join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
       left join pg_constraint c on c.conindid = x.indexrelid and c.contype = 'u'
      where x.indisunique and not x.indisprimary and x.indnatts = 1
        and n.nspname = current_schema()
        and t.relname in (${placeholders(CONTACT_TABLES)})
        and a.attname in (${placeholders(CONTACT_COLUMNS)})`,
    [...CONTACT_TABLES, ...CONTACT_COLUMNS],
  );
  const q = (name: unknown) => em.getPlatform().quoteIdentifier(String(name));
  for (const row of rows) {
    const sql = row.constraint_name
      ? `alter table ${q(row.schema_name)}.${q(row.table_name)} drop constraint ${q(row.constraint_name)}`
      : `drop index if exists ${q(row.schema_name)}.${q(row.index_name)}`;
    await em.getConnection().execute(sql);
    ctx.logger.info({ table: row.table_name, index: row.index_name }, 'dropped a stale unique index (uniqueness of email and phone number is kept by the server itself)');
  }
}

async function dropMysql(ctx: MigrationContext): Promise<void> {
  const { em } = ctx;
  const rows = await query(
    em,
    `select table_name as table_name, index_name as index_name
       from information_schema.statistics
      where table_schema = database() and non_unique = 0 and index_name <> 'PRIMARY'
        and table_name in (${placeholders(CONTACT_TABLES)})
      group by table_name, index_name
     having count(*) = 1 and max(column_name) in (${placeholders(CONTACT_COLUMNS)})`,
    [...CONTACT_TABLES, ...CONTACT_COLUMNS],
  );
  const q = (name: unknown) => em.getPlatform().quoteIdentifier(String(name));
  for (const row of rows) {
    await em.getConnection().execute(`alter table ${q(row.table_name)} drop index ${q(row.index_name)}`);
    ctx.logger.info({ table: row.table_name, index: row.index_name }, 'dropped a stale unique index (uniqueness of email and phone number is kept by the server itself)');
  }
}

interface MongoIndex {
  name: string;
  unique?: boolean;
  key: Record<string, unknown>;
}
interface MongoDbLike {
  listCollections(filter: object, options: object): { toArray(): Promise<{ name: string }[]> };
  collection(name: string): { indexes(): Promise<MongoIndex[]>; dropIndex(name: string): Promise<unknown> };
}

async function dropMongo(ctx: MigrationContext): Promise<void> {
  const db = (ctx.em.getConnection() as unknown as { getDb(): MongoDbLike }).getDb();
  const existing = await db.listCollections({ name: { $in: CONTACT_TABLES } }, { nameOnly: true }).toArray();
  for (const { name } of existing) {
    const collection = db.collection(name);
    for (const index of await collection.indexes()) {
      const keys = Object.keys(index.key);
      if (index.unique && keys.length === 1 && CONTACT_COLUMNS.includes(keys[0]!)) {
        await collection.dropIndex(index.name);
        ctx.logger.info({ collection: name, index: index.name }, 'dropped a stale unique index (uniqueness of email and phone number is kept by the server itself)');
      }
    }
  }
}

export const dropStaleContactUniques: DataMigration = {
  id: '0001_drop_stale_contact_uniques',
  async up(ctx) {
    switch (ctx.kind) {
      case 'postgres':
        return dropPostgres(ctx);
      case 'mysql':
      case 'mariadb':
        return dropMysql(ctx);
      case 'mongodb':
        return dropMongo(ctx);
      case 'sqlite':
        return dropSqliteContactUniques(ctx, CONTACT_TABLES, CONTACT_COLUMNS);
    }
  },
};
