/**
 * SQLite part of migration 0001 (uniqueness of email and phone number is kept by the server itself). A unique index made by CREATE INDEX is
 * simply dropped. A UNIQUE written inside CREATE TABLE cannot be dropped in SQLite: the table is rebuilt
 * without it, following SQLite's documented procedure for other schema changes (create the new table,
 * copy the rows, drop the old one, rename, recreate its indexes and triggers, check foreign keys).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { MigrationContext } from './types.ts';

type Row = Record<string, unknown>;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function all(em: EntityManager, sql: string, params: unknown[] = []): Promise<Row[]> {
  return (await em.getConnection().execute(sql, params, 'all')) as Row[];
}

async function run(em: EntityManager, sql: string): Promise<void> {
  await em.getConnection().execute(sql, [], 'run');
}

/** An identifier as SQLite accepts it in DDL: bare, "quoted", `quoted` or [quoted]. */
function identifierPattern(name: string): string {
  return `(?:"${name}"|\`${name}\`|\\[${name}\\]|\\b${name}\\b)`;
}

/** The CREATE TABLE text without UNIQUE on the given column (column constraint or one-column table constraint). */
export function withoutUniqueOn(createSql: string, column: string): string {
  const id = identifierPattern(column);
  const conflict = '(?:\\s+ON\\s+CONFLICT\\s+\\w+)?';
  const tableConstraint = new RegExp(`,\\s*(?:CONSTRAINT\\s+\\S+\\s+)?UNIQUE\\s*\\(\\s*${id}\\s*\\)${conflict}`, 'gi');
  const columnConstraint = new RegExp(`([(,]\\s*${id}\\s[^,]*?)\\s+(?:CONSTRAINT\\s+\\S+\\s+)?UNIQUE${conflict}`, 'gi');
  return createSql.replace(tableConstraint, '').replace(columnConstraint, '$1');
}

async function uniqueIndexesOn(em: EntityManager, table: string, columns: readonly string[]): Promise<{ name: string; origin: string; column: string }[]> {
  const found = [];
  for (const index of await all(em, `pragma index_list(${quote(table)})`)) {
    if (Number(index.unique) !== 1 || index.origin === 'pk') continue;
    const parts = await all(em, `pragma index_info(${quote(String(index.name))})`);
    const column = String(parts[0]?.name ?? '');
    if (parts.length === 1 && columns.includes(column)) found.push({ name: String(index.name), origin: String(index.origin), column });
  }
  return found;
}

async function rebuildTable(em: EntityManager, table: string, createSql: string, columns: string[]): Promise<void> {
  const temp = `${table}__portcullis_rebuild`;
  let newSql = createSql;
  for (const column of columns) newSql = withoutUniqueOn(newSql, column);
  newSql = newSql.replace(/^(\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?)("(?:[^"]|"")+"|`[^`]+`|\[[^\]]+\]|\S+)/i, `$1${quote(temp)}`);
  const dependents = await all(em, `select sql from sqlite_master where tbl_name = ? and type in ('index', 'trigger') and sql is not null`, [table]);
  await run(em, 'pragma foreign_keys = off');
  try {
    await run(em, 'begin');
    try {
      await run(em, newSql);
      await run(em, `insert into ${quote(temp)} select * from ${quote(table)}`);
      await run(em, `drop table ${quote(table)}`);
      await run(em, `alter table ${quote(temp)} rename to ${quote(table)}`);
      for (const { sql } of dependents) await run(em, String(sql));
      const broken = await all(em, `pragma foreign_key_check(${quote(table)})`);
      if (broken.length > 0) throw new Error(`rebuilding ${table} would break ${broken.length} foreign key reference(s)`);
      await run(em, 'commit');
    } catch (err) {
      await run(em, 'rollback').catch(() => undefined);
      throw err;
    }
  } finally {
    await run(em, 'pragma foreign_keys = on');
  }
}

export async function dropSqliteContactUniques(ctx: MigrationContext, tables: readonly string[], columns: readonly string[]): Promise<void> {
  const { em } = ctx;
  const marks = tables.map(() => '?').join(', ');
  const existing = await all(em, `select name, sql from sqlite_master where type = 'table' and name in (${marks})`, [...tables]);
  for (const { name, sql } of existing) {
    const table = String(name);
    const stale = await uniqueIndexesOn(em, table, columns);
    for (const index of stale.filter((i) => i.origin === 'c')) await run(em, `drop index if exists ${quote(index.name)}`);
    const inline = stale.filter((i) => i.origin === 'u').map((i) => i.column);
    if (inline.length > 0) await rebuildTable(em, table, String(sql), inline);
    if (stale.length > 0) ctx.logger.info({ table, indexes: stale.map((i) => i.name) }, 'dropped stale unique indexes (uniqueness of email and phone number is kept by the server itself)');
  }
}
