/**
 * The read API's inputs (docs/operations.md `fga/tuples/read`: user, relation, object filters,
 * page_size, continuation_token), shared by every store:
 *
 * - `object` is `type:id`, or `type:` for every object of the type; `user` is `type:id`, `type:*`,
 *   `type:id#relation`, or `type:` for every user of the type; `relation` is exact. Empty means no filter.
 * - page_size defaults to 50 and is at most 100 (OpenFGA's read limits); 0 or absent takes the default.
 * - Pages come in a stable order (the tuples' sortable ids, i.e. write order). The continuation token is
 *   opaque: base64url of the last id returned and a fingerprint of the filter, so a token reused with
 *   another filter is refused (2052) rather than silently skipping tuples; a malformed one is 2007.
 */
import { createHash } from 'node:crypto';
import { FGA_ERROR, fgaError } from '../model/fga-errors.ts';
import { isValidRelationName, isValidTypeName, parseObject, parseUser } from '../model/identifiers.ts';
import type { ReadFilter } from '../types.ts';
import { SORTABLE_ID_PATTERN } from './sortable-id.ts';
import type { TupleParts } from './tuple-rows.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** Column equalities of a read filter; absent keys do not filter. */
export type ParsedReadFilter = Partial<TupleParts>;

function typePrefix(value: string): string | undefined {
  return value.endsWith(':') && isValidTypeName(value.slice(0, -1)) ? value.slice(0, -1) : undefined;
}

export function parseReadFilter(filter: ReadFilter = {}): ParsedReadFilter {
  const parsed: ParsedReadFilter = {};
  if (filter.object) {
    const type = typePrefix(filter.object);
    const object = type ? undefined : parseObject(filter.object);
    if (!type && !object) throw fgaError(FGA_ERROR.validation, `invalid 'object' filter '${filter.object}': expected type:id or type:`);
    parsed.objectType = type ?? object!.type;
    if (object) parsed.objectId = object.id;
  }
  if (filter.relation) {
    if (!isValidRelationName(filter.relation)) throw fgaError(FGA_ERROR.validation, `invalid 'relation' filter '${filter.relation}'`);
    parsed.relation = filter.relation;
  }
  if (filter.user) {
    const type = typePrefix(filter.user);
    const user = type ? undefined : parseUser(filter.user);
    if (!type && !user) throw fgaError(FGA_ERROR.validation, `invalid 'user' filter '${filter.user}': expected type:id, type:*, type:id#relation or type:`);
    parsed.userType = type ?? user!.type;
    if (user) {
      parsed.userId = user.id;
      parsed.userRelation = user.relation ?? '';
    }
  }
  return parsed;
}

export function resolvePageSize(pageSize: number | undefined): number {
  if (pageSize === undefined || pageSize === null || pageSize === 0) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw fgaError(FGA_ERROR.validation, `page_size must be a whole number from 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`);
  }
  return pageSize;
}

export function matchesFilter(row: TupleParts, filter: ParsedReadFilter): boolean {
  for (const key of Object.keys(filter) as (keyof TupleParts)[]) {
    if (row[key] !== filter[key]) return false;
  }
  return true;
}

function fingerprint(filter: ParsedReadFilter): string {
  const canonical = JSON.stringify(Object.entries(filter).sort(([a], [b]) => (a < b ? -1 : 1)));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 12);
}

export function encodeContinuation(lastId: string, filter: ParsedReadFilter): string {
  return Buffer.from(JSON.stringify({ a: lastId, f: fingerprint(filter) })).toString('base64url');
}

/** The id after which the next page starts, or undefined without a token. */
export function decodeContinuation(token: string | undefined, filter: ParsedReadFilter): string | undefined {
  if (token === undefined || token === null || token === '') return undefined;
  let decoded: unknown;
  try {
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('not base64url');
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const shape = decoded as { a?: unknown; f?: unknown } | undefined;
  if (!shape || typeof shape.a !== 'string' || !SORTABLE_ID_PATTERN.test(shape.a) || typeof shape.f !== 'string') {
    throw fgaError(FGA_ERROR.invalidContinuationToken, 'invalid continuation_token: pass the token of the previous page unchanged');
  }
  if (shape.f !== fingerprint(filter)) {
    throw fgaError(FGA_ERROR.continuationTokenMismatch, 'the continuation_token belongs to a read with other filters');
  }
  return shape.a;
}
