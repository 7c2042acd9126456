/**
 * The admin `users` list at scale (docs/operations.md#users: newest first, optionally narrowed by a
 * case-insensitive substring of id, email, given, family or nick name; a page and an exact total).
 *
 * - Order: `users_created` (created_at, id) serves the newest-first order, so a page is an index range.
 * - Deep pages: the offset is walked over that index alone (the ids of the page first, then their rows),
 *   so skipping half a million users reads index entries, not half a million rows.
 * - Search: a LIKE '%q%' cannot use a B-tree index. Where storage migration 0004
 *   (server/storage/migrations/0004-users-search-text.ts) built a trigram index of the searched fields, a
 *   query of three characters or more first narrows the rows through it (FTS5 MATCH on SQLite, pg_trgm LIKE
 *   on PostgreSQL); each field is then still compared as before (case-insensitive.ts), which alone decides
 *   the answer. Shorter queries, and databases without the index, compare every row.
 * - Total: exact, as the contract says (count(*) over the same condition): with the trigram pre-filter it
 *   counts the candidate rows only; unfiltered it is a count over the smallest index.
 */
import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import { containsIgnoreCase } from '../../storage/case-insensitive.ts';
import type { PageWindow } from '../../ops/pagination.ts';
import { User, type UserRow } from './user.entity.ts';

/** docs/operations.md#users: the fields `query` searches. */
const SEARCHED_FIELDS = ['id', 'email', 'givenName', 'familyName', 'nickname'] as const;

/** The side table of storage migration 0004 (server/storage/migrations/0004-users-search-text.ts). */
const SEARCH_TABLE = 'users_search_text';

/** Trigram indexes find nothing for fewer than three characters (SQLite FTS5 trigram, pg_trgm). */
const MIN_TRIGRAM_QUERY = 3;

const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;

type SearchIndex = 'fts5' | 'trigram' | 'none';

/** Per database (its driver object): which trigram index migration 0004 left, looked up once. */
const indexes = new WeakMap<object, Promise<SearchIndex>>();

async function lookUpSearchIndex(em: EntityManager): Promise<SearchIndex> {
  const platform = em.getPlatform().constructor.name.toLowerCase();
  const connection = em.getConnection();
  if (platform.includes('sqlite')) {
    const rows = await connection.execute(`select 1 from sqlite_master where type = 'table' and name = '${SEARCH_TABLE}_fts'`);
    return (rows as unknown[]).length > 0 ? 'fts5' : 'none';
  }
  if (platform.includes('postgre')) {
    const rows = (await connection.execute(`select to_regclass('${SEARCH_TABLE}_trgm') is not null as present`)) as Array<{ present: boolean }>;
    return rows[0]?.present ? 'trigram' : 'none';
  }
  return 'none';
}

function searchIndexOf(em: EntityManager): Promise<SearchIndex> {
  const key = em.getDriver();
  let found = indexes.get(key);
  if (!found) {
    found = lookUpSearchIndex(em).catch(() => 'none' as const);
    indexes.set(key, found);
  }
  return found;
}

/** FTS5 query syntax: a double-quoted string is one phrase, i.e. a substring for the trigram tokenizer. */
function fts5Phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** PostgreSQL LIKE's default escape is the backslash; pg_trgm uses the index for a pattern without ESCAPE. */
function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Rows whose searched text may contain `text`: a superset of the matches, read through the trigram index. */
function candidates(index: SearchIndex, text: string): FilterQuery<UserRow> | undefined {
  if (index === 'none' || [...text].length < MIN_TRIGRAM_QUERY) return undefined;
  const lowered = text.toLowerCase();
  const condition =
    index === 'fts5'
      ? raw(
          (alias: string) =>
            `${alias}.id in (select s.user_id from ${SEARCH_TABLE} s where s.row_key in ` +
            `(select rowid from ${SEARCH_TABLE}_fts where ${SEARCH_TABLE}_fts match ?))`,
          [fts5Phrase(lowered)],
        )
      : raw((alias: string) => `${alias}.id in (select s.user_id from ${SEARCH_TABLE} s where s.search_text like ?)`, [likeContains(lowered)]);
  return { [condition]: [] } as FilterQuery<UserRow>;
}

async function whereFor(em: EntityManager, text: string | undefined): Promise<FilterQuery<UserRow>> {
  if (!text) return {};
  const exact: FilterQuery<UserRow> = { $or: SEARCHED_FIELDS.map((field) => containsIgnoreCase(em, User, field, text)) };
  const narrowed = candidates(await searchIndexOf(em), text);
  return narrowed ? { $and: [narrowed, exact] } : exact;
}

/** The page's rows: their ids over the (created_at, id) index first, then the rows themselves. */
async function pageRows(em: EntityManager, where: FilterQuery<UserRow>, window: PageWindow): Promise<UserRow[]> {
  if (window.offset === 0) return em.find(User, where, { orderBy: NEWEST_FIRST, limit: window.limit });
  const ids = await em.fork().find(User, where, { fields: ['id'], orderBy: NEWEST_FIRST, limit: window.limit, offset: window.offset });
  if (ids.length === 0) return [];
  return em.find(User, { id: { $in: ids.map((row) => row.id) } }, { orderBy: NEWEST_FIRST });
}

/** One page of users, newest first, optionally narrowed by a case-insensitive substring, and the exact total. */
export async function searchUsers(em: EntityManager, window: PageWindow, query?: string): Promise<{ users: UserRow[]; total: number }> {
  const where = await whereFor(em, query?.trim());
  const [users, total] = await Promise.all([pageRows(em, where, window), em.fork().count(User, where)]);
  return { users, total };
}
