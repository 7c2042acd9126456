/**
 * Translates a SCIM filter (RFC 7644 section 3.4.2.2) into a database filter over the columns a resource's
 * list reads (scim-list.ts), with the same answers as the in-memory evaluation of scim-filter.ts: string
 * attributes that are not caseExact (userName, emails, a group's displayName; RFC 7643 section 2.2) compare
 * their lower-cased column with the lower-cased value, caseExact ones (id, externalId) compare as given, an
 * absent attribute matches `ne` and `not` (every translated leaf is two-valued, never SQL NULL, so `not`
 * keeps its meaning), dateTime values compare as instants.
 *
 * What has no column (attributes kept only in the stored resource: name, title, the enterprise extension,
 * emails other than their value, a group's members other than `members[value eq]`) and what a column cannot answer exactly (co/sw/ew on
 * a caseExact attribute, a value with LIKE wildcards) is left untranslated and named in `unindexed`: the
 * list then evaluates the whole filter in memory over the rows the translated part selects, or refuses
 * when those are too many (scim-list.ts).
 */
import type { Filter } from 'scim2-parse-filter';
import type { AttributeDef, SchemaView } from './scim-attributes.ts';
import { resolveAttrPath, resolveSubPath } from './scim-paths.ts';
import { MAX_INDEXED_EMAIL } from './scim-user-emails.ts';

type Where = Record<string, unknown>;

/** A column a leaf compares: its property, how a value is folded to it, whether it may be absent. */
export interface ColumnDef {
  /** The attribute path as the schema spells it (`meta.lastModified`). */
  readonly name: string;
  readonly property: string;
  readonly type: 'string' | 'boolean' | 'dateTime';
  readonly lowerCased?: boolean;
  /** Whether `sortBy` orders by it in the database: the in-memory order (RFC 7644 section 3.4.2.3, values compared lower-cased) is its order. */
  readonly sortable?: boolean;
  /** Unique within the organization: an order by it needs no tie-break. */
  readonly unique?: boolean;
  /** May be null or '' (an absent attribute: the representation omits an empty externalId). */
  readonly optional?: boolean;
}

export interface DbFilterSource {
  /** Columns by attribute path, lower-cased (`username`, `meta.lastmodified`). */
  readonly columns: ReadonlyMap<string, ColumnDef>;
  /** The property a row's identity lives in, for the constant answers (a primary key is never null). */
  readonly key: string;
  /** The ids of the resources one of whose emails is `value` (lower-cased), for the email filters; undefined when the kind has none. */
  readonly emailOwners?: (valueKey: string) => Promise<string[]>;
  /** The property those ids are compared with. */
  readonly emailOwnerProperty?: string;
  /** The ids of the groups whose `members` hold `value` (a user id, caseExact), for the member filters; undefined when the kind has none. */
  readonly memberGroups?: (value: string) => Promise<string[]>;
  /**
   * The database compares strings ignoring case (MySQL and MariaDB's default collations): a comparison on a
   * caseExact column then selects a superset, narrowed again in memory, and cannot be negated.
   */
  readonly foldsCase?: boolean;
}

export interface DbFilter {
  /** The database filter; it selects every matching resource (and, with `unindexed`, possibly more). */
  readonly where: Where;
  /** The forms left untranslated (`title pr`), each evaluated in memory; empty when `where` is exact. */
  readonly unindexed: string[];
  /** Forms translated to a superset (a caseExact comparison where the database folds case), checked again in memory. */
  readonly recheck: string[];
}

const LIKE_WILDCARDS = /[%_\\]/;

function never(source: DbFilterSource): Where {
  return { [source.key]: null };
}

function present(column: ColumnDef): Where {
  return column.optional ? { $and: [{ [column.property]: { $ne: null } }, { [column.property]: { $ne: '' } }] } : { [column.property]: { $ne: null } };
}

/**
 * The strings starting with `prefix` lie between it and the prefix with its last character incremented, in
 * code-point order (SQLite's BINARY, PostgreSQL's C collations): a range an index answers where LIKE may not
 * (PostgreSQL uses an index for LIKE only under the C collation or text_pattern_ops). LIKE stays the exact test.
 */
function prefixRange(property: string, prefix: string): Where {
  const last = prefix.charCodeAt(prefix.length - 1);
  // Outside the Basic Multilingual Plane's plain characters the increment is not one character: no range.
  if (!prefix || last >= 0xd7ff) return { [property]: { $ne: null } };
  const next = prefix.slice(0, -1) + String.fromCharCode(last + 1);
  return { [property]: { $gte: prefix, $lt: next } };
}

function likePattern(op: string, value: string): string {
  return op === 'co' ? `%${value}%` : op === 'sw' ? `${value}%` : `%${value}`;
}

/** One comparison on a column, or undefined when the column cannot answer it exactly. */
function leaf(source: DbFilterSource, column: ColumnDef, op: string, expected: unknown): Where | undefined {
  if (op === 'ne' && foldsCaseOf(source, column)) return undefined;
  if (op === 'pr') return present(column);
  if (expected === null || expected === undefined) return undefined;
  if (op === 'ne') {
    const eq = leaf(source, column, 'eq', expected);
    return eq && { $not: eq };
  }
  let value: unknown;
  if (column.type === 'boolean') {
    value = expected;
  } else if (column.type === 'dateTime') {
    if (['co', 'sw', 'ew'].includes(op)) return undefined;
    value = new Date(Date.parse(String(expected)));
  } else {
    const text = String(expected);
    value = column.lowerCased ? text.toLowerCase() : text;
    if (['co', 'sw', 'ew'].includes(op)) {
      // LIKE's case rules differ between databases: only a lower-cased column compares the same everywhere.
      if (!column.lowerCased || LIKE_WILDCARDS.test(text)) return undefined;
      const like = { [column.property]: { $like: likePattern(op, value as string) } };
      return { $and: [present(column), like, ...(op === 'sw' && !source.foldsCase ? [prefixRange(column.property, value as string)] : [])] };
    }
    if (text === '' && column.optional) return op === 'eq' ? never(source) : undefined;
  }
  const operator = { eq: '$eq', gt: '$gt', ge: '$gte', lt: '$lt', le: '$lte' }[op];
  if (!operator) return undefined;
  return { $and: [present(column), { [column.property]: { [operator]: value } }] };
}

/** `members[value eq "U"]` and `members.value eq "U"`: the groups the member index finds (scim-group-members.ts). */
async function memberLeaf(source: DbFilterSource, op: string, expected: unknown): Promise<Where | undefined> {
  if (!source.memberGroups || op !== 'eq' || typeof expected !== 'string') return undefined;
  return { [source.key]: { $in: await source.memberGroups(expected) } };
}

async function emailLeaf(source: DbFilterSource, op: string, expected: unknown): Promise<Where | undefined> {
  if (!source.emailOwners || !source.emailOwnerProperty || op !== 'eq' || typeof expected !== 'string') return undefined;
  if (expected.length > MAX_INDEXED_EMAIL) return undefined;
  const owners = await source.emailOwners(expected.toLowerCase());
  return { [source.emailOwnerProperty]: { $in: owners } };
}

/** Whether the database compares this column's strings ignoring case although the attribute is caseExact. */
function foldsCaseOf(source: DbFilterSource, column: ColumnDef): boolean {
  return Boolean(source.foldsCase) && column.type === 'string' && !column.lowerCased;
}

function describe(node: Filter): string {
  if (node.op === '[]') return `${node.attrPath}[...]`;
  return 'attrPath' in node ? `${node.attrPath} ${node.op}` : node.op;
}

/** `where` selects a superset of the matches: exactly them when `unindexed` and `recheck` are empty. */
interface Translated {
  readonly where?: Where;
  readonly unindexed: string[];
  readonly recheck: string[];
}

const exact = (where: Where): Translated => ({ where, unindexed: [], recheck: [] });
const untranslated = (node: Filter): Translated => ({ unindexed: [describe(node)], recheck: [] });

async function translate(view: SchemaView, source: DbFilterSource, node: Filter): Promise<Translated> {
  switch (node.op) {
    case 'and': {
      const parts = await Promise.all(node.filters.map((f) => translate(view, source, f)));
      const wheres = parts.flatMap((p) => (p.where ? [p.where] : []));
      // A conjunction of supersets is a superset of the conjunction: translated conjuncts narrow the rest.
      return { where: wheres.length ? { $and: wheres } : undefined, unindexed: parts.flatMap((p) => p.unindexed), recheck: parts.flatMap((p) => p.recheck) };
    }
    case 'or': {
      const parts = await Promise.all(node.filters.map((f) => translate(view, source, f)));
      const unindexed = parts.flatMap((p) => p.unindexed);
      // A disjunction of supersets is a superset too, but an untranslated part may match any row.
      return unindexed.length ? { unindexed, recheck: [] } : { where: { $or: parts.map((p) => p.where!) }, unindexed: [], recheck: parts.flatMap((p) => p.recheck) };
    }
    case 'not': {
      const inner = await translate(view, source, node.filter);
      // The complement of a superset is a subset: only an exact inner filter may be negated.
      return inner.unindexed.length || inner.recheck.length ? { unindexed: [...inner.unindexed, ...inner.recheck], recheck: [] } : exact({ $not: inner.where! });
    }
    case '[]': {
      const path = resolveAttrPath(view, node.attrPath, 'invalidFilter');
      const inner = node.valFilter;
      if (!path.extension && path.attribute.name === 'emails' && inner.op === 'eq' && resolveSubPath(path.attribute, inner.attrPath, 'invalidFilter').name === 'value') {
        const where = await emailLeaf(source, inner.op, inner.compValue);
        if (where) return exact(where);
      }
      if (!path.extension && path.attribute.name === 'members' && inner.op === 'eq' && resolveSubPath(path.attribute, inner.attrPath, 'invalidFilter').name === 'value') {
        const where = await memberLeaf(source, inner.op, inner.compValue);
        if (where) return exact(where);
      }
      return untranslated(node);
    }
    default: {
      const path = resolveAttrPath(view, node.attrPath, 'invalidFilter');
      const expected = node.op === 'pr' ? undefined : node.compValue;
      if (!path.extension && path.attribute.name === 'emails' && path.sub?.name === 'value') {
        const where = await emailLeaf(source, node.op, expected);
        return where ? exact(where) : untranslated(node);
      }
      if (!path.extension && path.attribute.name === 'members' && path.sub?.name === 'value') {
        const where = await memberLeaf(source, node.op, expected);
        return where ? exact(where) : untranslated(node);
      }
      const column = path.extension ? undefined : source.columns.get(columnKey(path.attribute, path.sub));
      const where = column && leaf(source, column, node.op, expected);
      if (!where) return untranslated(node);
      return node.op !== 'pr' && foldsCaseOf(source, column) ? { where, unindexed: [], recheck: [describe(node)] } : exact(where);
    }
  }
}

export function columnKey(attribute: AttributeDef, sub?: AttributeDef): string {
  return (sub ? `${attribute.name}.${sub.name}` : attribute.name).toLowerCase();
}

/** The database filter of a parsed filter; `where` is `{}` (every row) when nothing could be translated. */
export async function databaseFilter(view: SchemaView, source: DbFilterSource, node: Filter): Promise<DbFilter> {
  const translated = await translate(view, source, node);
  return { where: translated.where ?? {}, unindexed: translated.unindexed, recheck: translated.recheck };
}
