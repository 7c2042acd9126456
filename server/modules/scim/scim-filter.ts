/**
 * SCIM filters (RFC 7644 section 3.4.2.2): parsed by scim2-parse-filter (loaded on first use: the library
 * costs nothing to a server that never serves SCIM), evaluated here against a resource's SCIM representation
 * with the schema's rules: attribute names case-insensitive, string values compared case-insensitively unless
 * the attribute is caseExact (RFC 7643 section 2.2: userName and emails are not, id and externalId are),
 * dateTime values as instants, booleans only with eq and ne. An unknown attribute or a malformed filter is
 * 400 invalidFilter.
 */
import type { Filter } from 'scim2-parse-filter';
import type { AttributeDef, SchemaView } from './scim-attributes.ts';
import { ScimError } from './scim-errors.ts';
import { containerOf, resolveAttrPath, resolveSubPath } from './scim-paths.ts';

/** Long enough for any filter an identity provider sends, short enough to bound the parser's recursion. */
export const MAX_FILTER_LENGTH = 2048;

export type CompiledFilter = (resource: Record<string, unknown>) => boolean;

let parser: Promise<typeof import('scim2-parse-filter')> | undefined;

export async function parseFilterText(text: string): Promise<Filter> {
  if (text.length > MAX_FILTER_LENGTH) throw ScimError.badRequest('invalidFilter', `the filter is longer than ${MAX_FILTER_LENGTH} characters`);
  parser ??= import('scim2-parse-filter');
  const { parse } = await parser;
  try {
    return parse(text);
  } catch {
    throw ScimError.badRequest('invalidFilter', `the filter ${JSON.stringify(text)} does not follow RFC 7644 section 3.4.2.2`);
  }
}

type CompValue = boolean | null | number | string;

function valuesAt(holder: unknown, def: AttributeDef, sub: AttributeDef | undefined): unknown[] {
  if (!holder || typeof holder !== 'object') return [];
  const raw = (holder as Record<string, unknown>)[def.name];
  const items = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  if (!sub) return items;
  return items.flatMap((item) => (item && typeof item === 'object' ? [(item as Record<string, unknown>)[sub.name]] : [])).filter((v) => v !== undefined && v !== null);
}

function compare(def: AttributeDef, op: string, actual: unknown, expected: CompValue): boolean {
  if (def.type === 'boolean') {
    if (typeof expected !== 'boolean' || (op !== 'eq' && op !== 'ne')) throw ScimError.badRequest('invalidFilter', `${def.name}: compare a boolean with eq or ne and true or false`);
    return op === 'eq' ? actual === expected : actual !== expected;
  }
  if (def.type === 'complex') throw ScimError.badRequest('invalidFilter', `${def.name}: name a sub-attribute to compare`);
  if (expected === null) return op === 'eq' ? actual === undefined : op === 'ne' ? actual !== undefined : false;
  if (def.type === 'dateTime') {
    const a = Date.parse(String(actual));
    const b = Date.parse(String(expected));
    if (Number.isNaN(b)) throw ScimError.badRequest('invalidFilter', `${def.name}: ${JSON.stringify(expected)} is not a dateTime`);
    return ordered(op, a === b ? 0 : a < b ? -1 : 1, () => String(actual), String(expected));
  }
  const fold = (v: string) => (def.caseExact ? v : v.toLowerCase());
  const a = fold(String(actual));
  const b = fold(String(expected));
  return ordered(op, a === b ? 0 : a < b ? -1 : 1, () => a, b);
}

function ordered(op: string, order: number, actual: () => string, expected: string): boolean {
  switch (op) {
    case 'eq': return order === 0;
    case 'ne': return order !== 0;
    case 'gt': return order > 0;
    case 'ge': return order >= 0;
    case 'lt': return order < 0;
    case 'le': return order <= 0;
    case 'co': return actual().includes(expected);
    case 'sw': return actual().startsWith(expected);
    case 'ew': return actual().endsWith(expected);
    default: throw ScimError.badRequest('invalidFilter', `unknown operator ${op}`);
  }
}

function present(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Compiles the AST once (every path resolved up front), so that an unknown attribute fails even on an empty list. */
function compile(view: SchemaView, node: Filter, within?: AttributeDef): CompiledFilter {
  switch (node.op) {
    case 'and': {
      const parts = node.filters.map((f) => compile(view, f, within));
      return (r) => parts.every((p) => p(r));
    }
    case 'or': {
      const parts = node.filters.map((f) => compile(view, f, within));
      return (r) => parts.some((p) => p(r));
    }
    case 'not': {
      const inner = compile(view, node.filter, within);
      return (r) => !inner(r);
    }
    case '[]': {
      if (within) throw ScimError.badRequest('invalidFilter', 'value filters do not nest');
      const path = resolveAttrPath(view, node.attrPath, 'invalidFilter');
      if (path.sub || !path.attribute.subAttributes) throw ScimError.badRequest('invalidFilter', `${node.attrPath}: a value filter needs a complex attribute`);
      const inner = compile(view, node.valFilter, path.attribute);
      return (r) => valuesAt(containerOf(r, path.extension, false), path.attribute, undefined).some((item) => typeof item === 'object' && item !== null && inner(item as Record<string, unknown>));
    }
    default: {
      let read: (r: Record<string, unknown>) => unknown[];
      let def: AttributeDef;
      if (within) {
        def = resolveSubPath(within, node.attrPath, 'invalidFilter');
        read = (element) => valuesAt(element, def, undefined);
      } else {
        const path = resolveAttrPath(view, node.attrPath, 'invalidFilter');
        def = path.sub ?? path.attribute;
        read = (r) => valuesAt(containerOf(r, path.extension, false), path.attribute, path.sub);
      }
      if (node.op === 'pr') return (r) => read(r).some(present);
      const expected = node.compValue;
      if (node.op === 'ne') return (r) => !read(r).some((v) => compare(def, 'eq', v, expected));
      // Checked once here, so a malformed comparison fails even when nothing is there to compare.
      compare(def, node.op, def.type === 'boolean' ? false : def.type === 'dateTime' ? new Date(0).toISOString() : '', expected);
      return (r) => read(r).some((v) => compare(def, node.op, v, expected));
    }
  }
}

export async function compileFilter(view: SchemaView, text: string): Promise<CompiledFilter> {
  return compile(view, await parseFilterText(text));
}

/** Compiles a filter already parsed (scim-list.ts parses once for the database and for memory). */
export function compileParsedFilter(view: SchemaView, node: Filter): CompiledFilter {
  return compile(view, node);
}

/** Compiles the inside of a PATCH value path (`emails[type eq "work"]`) against its attribute's sub-attributes. */
export async function compileValueFilter(view: SchemaView, attribute: AttributeDef, text: string): Promise<CompiledFilter> {
  return compile(view, await parseFilterText(text), attribute);
}
