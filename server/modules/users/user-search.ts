/**
 * The admin `users` list at scale (docs/operations.md#users: newest first, optionally narrowed by a
 * case-insensitive substring of id, email, given, family or nick name; a page and an exact total).
 *
 * - Order: `users_created` (created_at, id) serves the newest-first order, so a page is an index range.
 * - Deep pages: the offset is walked over that index alone (the ids of the page first, then their rows),
 *   so skipping half a million users reads index entries, not half a million rows; a page past the middle
 *   is walked from the oldest end. The contract's pages are numbered (docs/operations.md#users), so there is
 *   no keyset cursor: the middle of the list costs half the index.
 * - Search: a LIKE '%q%' cannot use a B-tree index. Where storage migration 0004
 *   (server/storage/migrations/0004-users-search-text.ts) built a trigram index of the searched fields, a
 *   query of three characters or more is counted in that index (FTS5 MATCH on SQLite, pg_trgm LIKE on
 *   PostgreSQL). A rare query reads its few candidates through the index; a frequent one walks the
 *   newest-first index, where matches come soon. Either way each field is still compared as before
 *   (case-insensitive.ts), and that comparison alone decides which users are answered. Shorter queries, and
 *   databases without the index, compare every row.
 * - Total: exact, as the contract says. The index's count when it is provably the same number
 *   (countIsExact), otherwise count(*) over the same condition as the page; unfiltered, a count(*) that
 *   SQLite and PostgreSQL answer from the smallest index.
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
const OLDEST_FIRST = { createdAt: 'asc', id: 'asc' } as const;

type SearchIndex = 'fts5' | 'trigram' | 'none';
type TrigramIndex = Exclude<SearchIndex, 'none'>;

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

/** Rows whose searched text contains `lowered`, read through the trigram index. */
function candidates(index: TrigramIndex, lowered: string): FilterQuery<UserRow> {
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

/** How many users' searched text contains `lowered`, counted in the trigram index alone. */
async function countCandidates(em: EntityManager, index: TrigramIndex, lowered: string): Promise<number> {
  const [sql, param] =
    index === 'fts5'
      ? [`select count(*) as n from ${SEARCH_TABLE}_fts where ${SEARCH_TABLE}_fts match ?`, fts5Phrase(lowered)]
      : [`select count(*) as n from ${SEARCH_TABLE} where search_text like ?`, likeContains(lowered)];
  const rows = (await em.getConnection().execute(sql, [param])) as Array<{ n: number | string }>;
  return Number(rows[0]?.n ?? 0);
}

/**
 * Whether "the searched text contains the query" says exactly what the field-by-field comparison says, so
 * that the index's count is the total: the query cannot span two lines of the text (no line break), and on
 * SQLite it is printable ASCII, where FTS5's case folding and SQLite's lower() and LIKE agree (FTS5 also
 * folds letters beyond A-Z, SQLite does not). PostgreSQL lower-cases the text and each field alike.
 */
function countIsExact(index: TrigramIndex, lowered: string): boolean {
  return index === 'fts5' ? /^[\x20-\x7e]+$/.test(lowered) : !/[\n\r]/.test(lowered);
}

/**
 * When a page is read by walking the newest-first index and comparing each row rather than by reading every
 * candidate and sorting them: when one user in WALK_RATIO or more matches, the walk meets the page's rows
 * within about (offset + limit) x WALK_RATIO rows, fewer than the candidates it would otherwise read.
 */
const WALK_FROM_CANDIDATES = 1000;
const WALK_RATIO = 20;

interface SearchPlan {
  where: FilterQuery<UserRow>;
  /** The exact total, when the index counted it. */
  total?: number;
}

async function planSearch(em: EntityManager, text: string, window: PageWindow): Promise<SearchPlan> {
  const exact: FilterQuery<UserRow> = { $or: SEARCHED_FIELDS.map((field) => containsIgnoreCase(em, User, field, text)) };
  const index = await searchIndexOf(em);
  if (index === 'none' || [...text].length < MIN_TRIGRAM_QUERY) return { where: exact };
  const lowered = text.toLowerCase();
  const narrowed: FilterQuery<UserRow> = { $and: [candidates(index, lowered), exact] };
  if (!countIsExact(index, lowered)) return { where: narrowed };
  const total = await countCandidates(em, index, lowered);
  const walk = total >= WALK_FROM_CANDIDATES && (window.offset + window.limit) * WALK_RATIO <= total;
  return { where: walk ? exact : narrowed, total };
}

/**
 * Where a page past the middle of `total` rows is read from: the oldest end, ascending, so that an offset
 * never skips more than half the list (the last page costs what the first does).
 */
function fromOldestEnd(window: PageWindow, total: number): { offset: number; limit: number } | undefined {
  if (window.offset + window.limit / 2 <= total / 2) return undefined;
  const offset = Math.max(0, total - window.offset - window.limit);
  return { offset, limit: Math.max(0, total - window.offset - offset) };
}

/**
 * The rows at `read` in `order`, newest first: their ids over the (created_at, id) index first, then the rows
 * themselves, so that the skipped entries are index entries, not rows.
 */
async function readPage(
  em: EntityManager,
  where: FilterQuery<UserRow>,
  read: { offset: number; limit: number },
  order: typeof NEWEST_FIRST | typeof OLDEST_FIRST,
): Promise<UserRow[]> {
  if (read.limit === 0) return [];
  if (read.offset === 0 && order === NEWEST_FIRST) return em.find(User, where, { orderBy: NEWEST_FIRST, limit: read.limit });
  const ids = await em.fork().find(User, where, { fields: ['id'], orderBy: order, limit: read.limit, offset: read.offset });
  if (ids.length === 0) return [];
  return em.find(User, { id: { $in: ids.map((row) => row.id) } }, { orderBy: NEWEST_FIRST });
}

/**
 * The unfiltered total last counted, per database: only a hint of which end a deep page is nearer, so that a
 * page in the first half is read while the exact total is counted (on PostgreSQL, on another connection).
 */
const listTotals = new WeakMap<object, number>();

/** One page of users, newest first, optionally narrowed by a case-insensitive substring, and the exact total. */
export async function searchUsers(em: EntityManager, window: PageWindow, query?: string): Promise<{ users: UserRow[]; total: number }> {
  const text = query?.trim();
  const plan: SearchPlan = text ? await planSearch(em, text, window) : { where: {} };
  const hint = plan.total ?? (text ? undefined : listTotals.get(em.getDriver()));
  const counting = plan.total ?? em.fork().count(User, plan.where);
  let users: UserRow[];
  let total: number;
  if (window.offset === 0 || (hint !== undefined && !fromOldestEnd(window, hint))) {
    [users, total] = await Promise.all([readPage(em, plan.where, window, NEWEST_FIRST), counting]);
  } else {
    total = await counting;
    const reversed = fromOldestEnd(window, total);
    users = await readPage(em, plan.where, reversed ?? window, reversed ? OLDEST_FIRST : NEWEST_FIRST);
  }
  if (!text) listTotals.set(em.getDriver(), total);
  return { users, total };
}
