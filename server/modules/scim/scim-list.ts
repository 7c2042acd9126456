/**
 * GET /Users and /Groups (RFC 7644 section 3.4.2): the filter (section 3.4.2.2), the order (section 3.4.2.3)
 * and the page (section 3.4.2.4) run in the database, `totalResults` is a count query, and only the page's
 * rows are read and projected (section 3.9), so a request's cost and memory follow the page, not the
 * organization. A filter or sortBy naming an attribute without a column (scim-db-filter.ts) is evaluated in
 * memory as before (scim-query.ts) over the rows the rest of the filter selects, when they are at most
 * MAX_IN_MEMORY_CANDIDATES; otherwise the request is refused, naming the form, rather than reading the whole
 * organization: invalidFilter for a filter (section 3.4.2.2: a filter the provider does not support),
 * tooMany for a sort (section 3.12: more results than the server is willing to process).
 */
import type { SchemaView } from './scim-attributes.ts';
import { columnKey, databaseFilter, type DbFilter, type DbFilterSource } from './scim-db-filter.ts';
import { ScimError } from './scim-errors.ts';
import { compileParsedFilter, parseFilterText } from './scim-filter.ts';
import { LIST_RESPONSE_SCHEMA, MAX_IN_MEMORY_CANDIDATES } from './scim-limits.ts';
import { resolveAttrPath } from './scim-paths.ts';
import { listResponse, pageWindow, project, type ListQuery } from './scim-query.ts';

type Where = Record<string, unknown>;
export type OrderBy = ReadonlyArray<Record<string, 'asc' | 'desc'>>;

export interface ReadOptions {
  readonly orderBy: OrderBy;
  readonly limit?: number;
  readonly offset?: number;
  /** The query whose attributes the page is projected to, so a source may leave out what it drops; absent: every attribute. */
  readonly query?: ListQuery;
}

/** One resource type's rows in one organization, as the list reads them. */
export interface ListSource extends DbFilterSource {
  /** Confines every read to the organization of the token. */
  readonly scopeWhere: Where;
  /** The order of a list without sortBy, and the tie-break of every other order: oldest first. */
  readonly defaultOrder: OrderBy;
  count(where: Where): Promise<number>;
  read(where: Where, options: ReadOptions): Promise<Array<Record<string, unknown>>>;
}

async function filterOf(view: SchemaView, source: ListSource, text: string | undefined) {
  if (text === undefined || text.trim() === '') return { db: { where: {}, unindexed: [], recheck: [] } as DbFilter, matches: undefined };
  const node = await parseFilterText(text);
  const matches = compileParsedFilter(view, node);
  return { db: await databaseFilter(view, source, node), matches };
}

/** The database order for sortBy, or undefined when the attribute has no sortable column. */
function orderOf(view: SchemaView, source: ListSource, query: ListQuery): OrderBy | undefined {
  if (!query.sortBy) return source.defaultOrder;
  const path = resolveAttrPath(view, query.sortBy, 'invalidPath');
  const column = path.extension ? undefined : source.columns.get(columnKey(path.attribute, path.sub));
  if (!column?.sortable) return undefined;
  const direction = query.sortOrder?.toLowerCase() === 'descending' ? 'desc' : 'asc';
  return [{ [column.property]: direction }, ...(column.unique ? [] : source.defaultOrder)];
}

export async function listResources(view: SchemaView, source: ListSource, query: ListQuery): Promise<Record<string, unknown>> {
  const { startIndex, count } = pageWindow(query);
  const { db, matches } = await filterOf(view, source, query.filter);
  const where = Object.keys(db.where).length ? { $and: [source.scopeWhere, db.where] } : source.scopeWhere;
  const orderBy = orderOf(view, source, query);
  const inMemory = [...db.unindexed, ...db.recheck];
  if (orderBy && !inMemory.length) {
    const totalResults = await source.count(where);
    const page = count > 0 && startIndex <= totalResults ? await readPage(source, where, orderBy, startIndex - 1, count, totalResults, query) : [];
    return { schemas: [LIST_RESPONSE_SCHEMA], totalResults, itemsPerPage: page.length, startIndex, Resources: page.map((r) => project(view, r, query)) };
  }
  const candidates = await source.count(where);
  if (candidates > MAX_IN_MEMORY_CANDIDATES) {
    if (inMemory.length) {
      throw ScimError.badRequest('invalidFilter', `the filter form ${inMemory.map((f) => JSON.stringify(f)).join(', ')} is not supported over more than ${MAX_IN_MEMORY_CANDIDATES} resources: narrow it with an indexed attribute (${indexedNames(source)})`);
    }
    throw ScimError.badRequest('tooMany', `sortBy ${JSON.stringify(query.sortBy)} is not supported over more than ${MAX_IN_MEMORY_CANDIDATES} resources: sort by ${sortableNames(source)}, or filter first`);
  }
  return listResponse(view, await source.read(where, { orderBy: source.defaultOrder }), query, matches);
}

/**
 * A page past the middle is read from the other end in the reverse order (every order here is total: it ends
 * in a unique column), so that the database never skips more than half the list; the last page skips nothing.
 */
async function readPage(source: ListSource, where: Where, orderBy: OrderBy, offset: number, count: number, total: number, query: ListQuery) {
  if (offset <= total / 2) return source.read(where, { orderBy, limit: count, offset, query });
  const end = Math.min(total, offset + count);
  const reversed = orderBy.map((order) => Object.fromEntries(Object.entries(order).map(([key, direction]) => [key, direction === 'asc' ? 'desc' : 'asc'])) as Record<string, 'asc' | 'desc'>);
  return (await source.read(where, { orderBy: reversed, limit: end - offset, offset: total - end, query })).reverse();
}

function indexedNames(source: ListSource): string {
  return [...[...source.columns.values()].map((c) => c.name), ...(source.emailOwners ? ['emails.value'] : [])].join(', ');
}

function sortableNames(source: ListSource): string {
  return [...source.columns.values()].filter((c) => c.sortable).map((c) => c.name).join(', ');
}
