/**
 * The engine's three reads of the SQL store (TupleSource in ../types.ts) as hand-written, parameterised
 * SELECTs run through storage/bound-statements.ts: a check makes several of them, and through the ORM each cost more than
 * the index seek it wraps (bench/fga.ts targets: p99 under 5 ms, a 100-check batch under 20 ms). Identifiers come
 * from the entity's metadata, quoted by the platform; values are always bound parameters. Every read is
 * seeks of an index of fga-tuple.entity.ts: an object's relation on the leading columns of fga_tuples_key,
 * users on one type's relation on fga_tuples_by_user (all of its columns constrained).
 *
 * - SQLite, MySQL, MariaDB: one statement per call, `IN (...)` for many ids, which they seek with or
 *   without statistics. The list is padded to a power of two with repeats of its last id (harmless in IN),
 *   so only a few statement texts exist to prepare.
 * - PostgreSQL: `IN (...)`/`= ANY(...)` on a table without statistics (right after a bulk load, until
 *   autovacuum analyzes it) is planned as a scan of every tuple of the type with the list as a filter
 *   (measured: 45 ms for 10 ids among 100,000 tuples, 0.3 ms as seeks). So there every id is a seek of its
 *   own, and the seeks of all calls made in one synchronous run share a statement (seek-batch.ts): a
 *   UNION ALL of single seeks when few, else ids unnested and each joined LATERAL to a fenced (`offset 0`)
 *   single-seek subquery, a nested loop of seeks whatever the statistics say.
 */
import type { Storage } from '../../../storage/types.ts';
import type { TupleKey } from '../types.ts';
import { FgaTuple } from './fga-tuple.entity.ts';
import { createSeekBatcher, type SeekKind, type SeekStatements } from './seek-batch.ts';
import { createSqlRunner, statement, type Row, type SqlRunner, type Statement } from '../../../storage/bound-statements.ts';

/** Ids per statement: well inside every driver's bound-parameter limit (padded up to 512 at most). */
const IDS_PER_STATEMENT = 500;

const SELECTED = ['objectType', 'objectId', 'relation', 'userType', 'userId', 'userRelation', 'conditionName', 'conditionContext'] as const;
type Column = (typeof SELECTED)[number];

export interface RawTupleReads {
  /** Tuples on `objectType:objectId` with `relation`. */
  byObject(objectType: string, objectId: string, relation: string): Promise<TupleKey[]>;
  /** Tuples with `relation` on `objectType:id` for each of `objectIds` (distinct). */
  byObjects(objectType: string, relation: string, objectIds: readonly string[]): Promise<TupleKey[]>;
  /** Tuples on objects of `objectType` with `relation` whose user is `userType:id[#userRelation]` for each id. */
  byUsers(userType: string, userRelation: string, objectType: string, relation: string, userIds: readonly string[]): Promise<TupleKey[]>;
}

/** A result row (aliased to the property names) as a tuple; SQLite and MySQL return JSON as text. */
function rowToTuple(row: Row): TupleKey {
  const userRelation = row.userRelation as string;
  const user = userRelation ? `${row.userType}:${row.userId}#${userRelation}` : `${row.userType}:${row.userId}`;
  const tuple: TupleKey = { user, relation: row.relation as string, object: `${row.objectType}:${row.objectId}` };
  const name = row.conditionName as string | null;
  if (name) {
    const raw = row.conditionContext;
    const context = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown> | null;
    tuple.condition = context ? { name, context } : { name };
  }
  return tuple;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function paddedLength(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

const OBJECT_SEEK: readonly Column[] = ['objectType', 'objectId', 'relation'];
const USER_SEEK: readonly Column[] = ['userType', 'userId', 'userRelation', 'objectType', 'relation'];

/**
 * The statement texts for one database, identifiers from the entity's metadata quoted by the platform;
 * each is built once. `equal` are columns compared to one parameter each, in order.
 */
function statementBuilder(storage: Pick<Storage, 'kind' | 'fork'>) {
  const em = storage.fork();
  const platform = em.getPlatform();
  const meta = em.getMetadata(FgaTuple);
  const quote = (identifier: string) => platform.quoteIdentifier(identifier);
  const column = (property: Column) => quote(meta.properties[property].fieldNames[0]!);
  const table = quote(meta.tableName);
  const selectList = SELECTED.map((property) => `${column(property)} as ${quote(property)}`).join(', ');
  const placeholder = (n: number) => (storage.kind === 'postgres' ? `$${n}` : '?');
  const conditions = (equal: readonly Column[], first = 1) => equal.map((property, i) => `${column(property)} = ${placeholder(first + i)}`);
  const seekColumns = (kind: SeekKind) => (kind === 'object' ? OBJECT_SEEK : USER_SEEK);
  const cache = new Map<string, Statement>();
  const cached = (key: string, text: () => string) => {
    let found = cache.get(key);
    if (!found) cache.set(key, (found = statement(text())));
    return found;
  };

  return {
    /** SQLite, MySQL, MariaDB: `equal` columns, then `listed in (...)` of `count` placeholders. */
    inList: (equal: readonly Column[], listed: Column, count: number) =>
      cached(`in${count}:${equal.join()}:${listed}`, () => {
        const list = Array.from({ length: count }, () => '?').join(', ');
        return `select ${selectList} from ${table} where ${[...conditions(equal), `${column(listed)} in (${list})`].join(' and ')}`;
      }),
    /** PostgreSQL: the seek statements of seek-batch.ts. */
    seeks: {
      tagged: (objects: number, users: number) =>
        cached(`tagged:${objects}:${users}`, () => {
          const kinds = [...Array<SeekKind>(objects).fill('object'), ...Array<SeekKind>(users).fill('user')];
          let next = 1;
          const branch = (kind: SeekKind, position: number) => {
            const equal = seekColumns(kind);
            const where = conditions(equal, next).join(' and ');
            next += equal.length;
            return `(select ${position} as ${quote('seek')}, ${selectList} from ${table} where ${where})`;
          };
          return kinds.map(branch).join(' union all ');
        }),
      unnestedTagged: (kind: SeekKind) =>
        cached(`unnested:${kind}`, () => {
          const equal = seekColumns(kind);
          const names = equal.map((_, i) => quote(`v${i}`));
          const arrays = equal.map((_, i) => `${placeholder(i + 1)}::text[]`).join(', ');
          const keys = `unnest(${arrays}) with ordinality as ${quote('k')}(${names.join(', ')}, ${quote('n')})`;
          const inner = equal.map((property, i) => `${column(property)} = ${quote('k')}.${names[i]}`).join(' and ');
          const position = `(${quote('k')}.${quote('n')} - 1)::int as ${quote('seek')}`;
          return `select ${position}, ${quote('t')}.* from ${keys} cross join lateral (select ${selectList} from ${table} where ${inner} offset 0) as ${quote('t')}`;
        }),
    } satisfies SeekStatements,
  };
}

type Statements = () => ReturnType<typeof statementBuilder>;

/** PostgreSQL: every read is seeks, batched across the calls of one synchronous run (seek-batch.ts). */
function seekReads(run: SqlRunner, statements: Statements): RawTupleReads {
  const seek = createSeekBatcher(run, () => statements().seeks);
  const seekEach = async (kind: SeekKind, ids: readonly string[], values: (id: string) => string[]) =>
    (await Promise.all(ids.map((id) => seek({ kind, values: values(id) })))).flatMap((rows) => rows.map(rowToTuple));
  return {
    byObject: (objectType, objectId, relation) => seekEach('object', [objectId], (id) => [objectType, id, relation]),
    byObjects: (objectType, relation, objectIds) => seekEach('object', objectIds, (id) => [objectType, id, relation]),
    byUsers: (userType, userRelation, objectType, relation, userIds) =>
      seekEach('user', userIds, (id) => [userType, id, userRelation, objectType, relation]),
  };
}

/** SQLite, MySQL, MariaDB: one statement per call, an IN list for many ids (padded, see the header). */
function inListReads(run: SqlRunner, statements: Statements): RawTupleReads {
  const select = async (stmt: Statement, params: readonly unknown[]) => (await run(stmt, params)).map(rowToTuple);
  async function selectAny(equal: readonly Column[], values: readonly string[], listed: Column, ids: readonly string[]): Promise<TupleKey[]> {
    const parts = chunks(ids, IDS_PER_STATEMENT).map((part) => {
      const padded = paddedLength(part.length);
      const list = part.length === padded ? part : [...part, ...Array.from({ length: padded - part.length }, () => part.at(-1)!)];
      return select(statements().inList(equal, listed, padded), [...values, ...list]);
    });
    return (await Promise.all(parts)).flat();
  }
  return {
    byObject: (objectType, objectId, relation) => selectAny(['objectType', 'relation'], [objectType, relation], 'objectId', [objectId]),
    byObjects: (objectType, relation, objectIds) => selectAny(['objectType', 'relation'], [objectType, relation], 'objectId', objectIds),
    byUsers: (userType, userRelation, objectType, relation, userIds) =>
      selectAny(['userType', 'userRelation', 'objectType', 'relation'], [userType, userRelation, objectType, relation], 'userId', userIds),
  };
}

export function createRawTupleReads(storage: Pick<Storage, 'kind' | 'fork'>): RawTupleReads {
  const run = createSqlRunner(storage);
  let builder: ReturnType<typeof statementBuilder> | undefined;
  const statements = () => (builder ??= statementBuilder(storage));
  return storage.kind === 'postgres' ? seekReads(run, statements) : inListReads(run, statements);
}
