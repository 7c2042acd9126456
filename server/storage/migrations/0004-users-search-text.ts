/**
 * A trigram index over the text the admin `users` search looks in (docs/operations.md#users: a
 * case-insensitive substring of id, email, given, family or nick name), so that a search over a million
 * users reads the matching rows instead of every row. A substring (`LIKE '%q%'`) cannot use a B-tree index;
 * a trigram index can, for queries of three characters or more.
 *
 * The index lives in a side table keyed by the user id, kept by triggers on `users`, so that no code path
 * that writes a user (signup, profile, SCIM, admin) has to remember it, and so that the schema update
 * (run-migrations.ts), which drops indexes the entity metadata does not name but never drops tables or
 * triggers, leaves it alone. It holds one lower-cased line per searched field; the service reads it as a
 * pre-filter only and still checks each field itself (modules/users/user-search.ts), so a match across two
 * fields, or a letter case folded differently by the index, never shows up in an answer.
 *
 * - SQLite: an FTS5 table with the trigram tokenizer (SQLite "FTS5 Trigram Tokenizer") over a plain table
 *   with an INTEGER PRIMARY KEY (stable across VACUUM, unlike an implicit rowid).
 * - PostgreSQL: a GIN index with pg_trgm's gin_trgm_ops (PostgreSQL "pg_trgm", F.35.4 Index Support). When
 *   the extension cannot be created (no privilege), nothing is created and the search scans as before.
 * - Other databases: nothing; the search scans as before.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { DataMigration, MigrationContext } from './types.ts';

/** The side table the users search reads (modules/users/user-search.ts names it too). */
export const USERS_SEARCH_TABLE = 'users_search_text';

/** The searched fields of a `users` row `alias` (new or old), one per line. */
function searchText(alias: string): string {
  const fields = ['id', 'email', 'given_name', 'family_name', 'nickname'].map((column) => `coalesce(${alias}.${column}, '')`);
  return `lower(${fields.join(` || chr(10) || `)})`;
}

/** In `em`'s transaction: a bare execute would wait for another connection (SQLite has one). */
async function run(em: EntityManager, statements: readonly string[]): Promise<void> {
  for (const sql of statements) await em.getConnection().execute(sql, [], 'run', em.getTransactionContext());
}

const SQLITE: readonly string[] = [
  `create table if not exists ${USERS_SEARCH_TABLE} (row_key integer primary key, user_id varchar(36) not null unique, search_text text not null)`,
  `create virtual table if not exists ${USERS_SEARCH_TABLE}_fts using fts5(search_text, content='${USERS_SEARCH_TABLE}', content_rowid='row_key', tokenize='trigram')`,
  `create trigger if not exists ${USERS_SEARCH_TABLE}_ai after insert on ${USERS_SEARCH_TABLE} begin
     insert into ${USERS_SEARCH_TABLE}_fts(rowid, search_text) values (new.row_key, new.search_text); end`,
  `create trigger if not exists ${USERS_SEARCH_TABLE}_ad after delete on ${USERS_SEARCH_TABLE} begin
     insert into ${USERS_SEARCH_TABLE}_fts(${USERS_SEARCH_TABLE}_fts, rowid, search_text) values ('delete', old.row_key, old.search_text); end`,
  `create trigger if not exists users_search_insert after insert on users begin
     insert into ${USERS_SEARCH_TABLE}(user_id, search_text) values (new.id, ${searchText('new')}); end`,
  `create trigger if not exists users_search_update after update of id, email, given_name, family_name, nickname on users begin
     delete from ${USERS_SEARCH_TABLE} where user_id = old.id;
     insert into ${USERS_SEARCH_TABLE}(user_id, search_text) values (new.id, ${searchText('new')}); end`,
  `create trigger if not exists users_search_delete after delete on users begin
     delete from ${USERS_SEARCH_TABLE} where user_id = old.id; end`,
  `delete from ${USERS_SEARCH_TABLE}`,
  `insert into ${USERS_SEARCH_TABLE}(user_id, search_text) select u.id, ${searchText('u')} from users u`,
].map((sql) => sql.replaceAll('chr(10)', 'char(10)'));

const POSTGRES: readonly string[] = [
  `create table if not exists ${USERS_SEARCH_TABLE} (user_id varchar(36) primary key, search_text text not null)`,
  `create or replace function users_search_sync() returns trigger language plpgsql as $$
   begin
     if tg_op in ('UPDATE', 'DELETE') then delete from ${USERS_SEARCH_TABLE} where user_id = old.id; end if;
     if tg_op in ('INSERT', 'UPDATE') then
       insert into ${USERS_SEARCH_TABLE}(user_id, search_text) values (new.id, ${searchText('new')});
     end if;
     return null;
   end $$`,
  `drop trigger if exists users_search_sync on users`,
  `create trigger users_search_sync after insert or delete or update of id, email, given_name, family_name, nickname
     on users for each row execute function users_search_sync()`,
  `delete from ${USERS_SEARCH_TABLE}`,
  `insert into ${USERS_SEARCH_TABLE}(user_id, search_text) select u.id, ${searchText('u')} from users u`,
  `create index if not exists ${USERS_SEARCH_TABLE}_trgm on ${USERS_SEARCH_TABLE} using gin (search_text gin_trgm_ops)`,
];

/** pg_trgm is trusted since PostgreSQL 13: a database owner may create it; elsewhere it may be refused. */
async function createTrigramExtension(ctx: MigrationContext): Promise<boolean> {
  try {
    await ctx.em.getConnection().execute('create extension if not exists pg_trgm');
    return true;
  } catch (err) {
    ctx.logger.warn({ err: (err as Error).message }, 'pg_trgm is not available: the admin users search scans the users table');
    return false;
  }
}

export const indexUsersSearchText: DataMigration = {
  id: '0004_users_search_text',
  async up(ctx) {
    if (ctx.kind === 'sqlite') {
      await ctx.em.transactional((em) => run(em, SQLITE));
    } else if (ctx.kind === 'postgres' && (await createTrigramExtension(ctx))) {
      await ctx.em.transactional((em) => run(em, POSTGRES));
    }
  },
};
