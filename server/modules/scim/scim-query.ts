/**
 * Query parameters of SCIM reads (RFC 7644 sections 3.4.2 and 3.9): `filter`, `sortBy`/`sortOrder`,
 * `startIndex`/`count` (1-based; count capped, section 3.4.2.4), `attributes`/`excludedAttributes`.
 * The list answer is a ListResponse (section 3.4.2).
 */
import type { SchemaView } from './scim-attributes.ts';
import { ScimError } from './scim-errors.ts';
import type { CompiledFilter } from './scim-filter.ts';
import { DEFAULT_PAGE_COUNT, LIST_RESPONSE_SCHEMA, MAX_PAGE_COUNT } from './scim-limits.ts';
import { containerOf, resolveAttrPath } from './scim-paths.ts';

type Resource = Record<string, unknown>;

export interface ListQuery {
  readonly filter?: string;
  readonly sortBy?: string;
  readonly sortOrder?: string;
  readonly startIndex?: string;
  readonly count?: string;
  readonly attributes?: string;
  readonly excludedAttributes?: string;
}

function integer(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^-?\d{1,9}$/.test(text)) throw ScimError.badRequest('invalidValue', `${name} must be an integer`);
  return Number(text);
}

/** startIndex below 1 counts as 1; a negative count as 0 (RFC 7644 section 3.4.2.4). */
export function pageWindow(query: ListQuery): { startIndex: number; count: number } {
  const startIndex = Math.max(1, integer(query.startIndex, 'startIndex') ?? 1);
  const count = Math.min(MAX_PAGE_COUNT, Math.max(0, integer(query.count, 'count') ?? DEFAULT_PAGE_COUNT));
  return { startIndex, count };
}

function sortKey(view: SchemaView, sortBy: string): (r: Resource) => string {
  const path = resolveAttrPath(view, sortBy, 'invalidPath');
  return (r) => {
    const holder = containerOf(r, path.extension, false)?.[path.attribute.name];
    const first = Array.isArray(holder) ? (holder.find((v) => v && typeof v === 'object' && (v as Resource).primary === true) ?? holder[0]) : holder;
    const value = path.sub ? (first as Resource | undefined)?.[path.sub.name] : first;
    return value === undefined || value === null ? '' : String(value).toLowerCase();
  };
}

/** Filters, sorts and pages resources already read; every answer is a ListResponse. */
export function listResponse(view: SchemaView, all: Resource[], query: ListQuery, matches: CompiledFilter | undefined): Record<string, unknown> {
  const { startIndex, count } = pageWindow(query);
  let selected = matches ? all.filter(matches) : all;
  if (query.sortBy) {
    const key = sortKey(view, query.sortBy);
    const direction = query.sortOrder?.toLowerCase() === 'descending' ? -1 : 1;
    selected = [...selected].sort((a, b) => direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  const page = selected.slice(startIndex - 1, startIndex - 1 + count);
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: selected.length,
    itemsPerPage: page.length,
    startIndex,
    Resources: page.map((r) => project(view, r, query)),
  };
}

function names(text: string | undefined): string[] {
  return (text ?? '').split(',').map((n) => n.trim()).filter(Boolean);
}

/**
 * `attributes` keeps only the named ones, `excludedAttributes` drops them (RFC 7644 section 3.9); `id`,
 * `schemas` and `meta` are returned always (RFC 7643 section 7, returned "always").
 */
export function project(view: SchemaView, resource: Resource, query: Pick<ListQuery, 'attributes' | 'excludedAttributes'>): Resource {
  const keep = names(query.attributes);
  const drop = names(query.excludedAttributes);
  if (!keep.length && !drop.length) return resource;
  const always = new Set(['id', 'schemas', 'meta']);
  if (keep.length) {
    const out: Resource = {};
    for (const key of always) if (resource[key] !== undefined) out[key] = resource[key];
    for (const name of keep) {
      const path = resolveAttrPath(view, name, 'invalidPath');
      const from = containerOf(resource, path.extension, false);
      const value = from?.[path.attribute.name];
      if (value === undefined) continue;
      const into = path.extension ? ((out[path.extension] as Resource | undefined) ?? (out[path.extension] = {}) as Resource) : out;
      if (!path.sub) into[path.attribute.name] = value;
      else if (Array.isArray(value)) into[path.attribute.name] = value.map((v) => ({ [path.sub!.name]: (v as Resource)[path.sub!.name] }));
      else if (value && typeof value === 'object') into[path.attribute.name] = { ...((into[path.attribute.name] as Resource) ?? {}), [path.sub.name]: (value as Resource)[path.sub.name] };
    }
    return out;
  }
  const out = structuredClone(resource);
  for (const name of drop) {
    const path = resolveAttrPath(view, name, 'invalidPath');
    if (!path.extension && always.has(path.attribute.name)) continue;
    const from = containerOf(out, path.extension, false);
    if (!from) continue;
    if (!path.sub) delete from[path.attribute.name];
    else for (const v of [from[path.attribute.name]].flat()) if (v && typeof v === 'object') delete (v as Resource)[path.sub.name];
  }
  return out;
}
