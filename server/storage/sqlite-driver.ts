/**
 * MikroORM's SQLite driver with the values of a query bound to its statement instead of written into its
 * text. MikroORM formats every query into a literal SQL text (Platform.formatQuery: `where id = 'ab12'`), so
 * no two calls share a text and nothing can be prepared once; bound, a query shape is one text and
 * sqlite-dialect.ts keeps its statement. Values reach SQLite as values, never as SQL.
 *
 * A query is bound only when its binding is exactly what the formatted text would have meant to SQLite
 * (SqlitePlatform.escape): every parameter a plain value (null, boolean, number, bigint, string, Date,
 * Buffer) and the text free of anything formatQuery treats specially (`??` identifiers, `\?`) or that
 * could hold a `?` that is not a placeholder (quoted literals). Everything else (arrays spliced as lists,
 * JSON objects, raw fragments, named parameters, a query with an abort signal) takes MikroORM's own path.
 */
import { BaseSqliteConnection, NativeQueryBuilder, SqliteDriver, isRaw, type Configuration, type RawQueryFragment } from '@mikro-orm/sql';

type ExecuteArgs = Parameters<BaseSqliteConnection['execute']>;

/** Not a value this module binds. */
const UNBOUND = Symbol('unbound');

/** Whole numbers below this magnitude are integer literals to SQLite (int64); larger ones it reads as REAL. */
const INT64_LIMIT = 2 ** 63;

/**
 * The value SQLite would have read from the literal SqlitePlatform.escape writes, or UNBOUND. node:sqlite
 * binds every JS number as REAL, while the literal `5` is an INTEGER (stored as '5', not '5.0', in a text
 * column), so whole numbers go as bigint; `true`/`false` are the integers 1 and 0 in SQLite; a Date is its
 * epoch milliseconds.
 */
export function boundValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'bigint':
      return value;
    case 'boolean':
      return value ? 1n : 0n;
    case 'number':
      if (Number.isInteger(value) && Math.abs(value) < INT64_LIMIT) return BigInt(value);
      return Number.isFinite(value) ? value : UNBOUND;
    case 'object':
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? UNBOUND : BigInt(value.getTime());
      if (Buffer.isBuffer(value)) return value;
      return UNBOUND;
    default:
      return UNBOUND;
  }
}

/** The values to bind to `sql`, or undefined when the query must be formatted as MikroORM does. */
export function bindableParameters(sql: string, params: readonly unknown[]): unknown[] | undefined {
  if (sql.includes("'") || sql.includes('"') || sql.includes('??') || sql.includes('\\?')) return undefined;
  let placeholders = 0;
  for (let at = sql.indexOf('?'); at >= 0; at = sql.indexOf('?', at + 1)) placeholders++;
  if (placeholders !== params.length || placeholders === 0) return undefined;
  const values = new Array<unknown>(params.length);
  for (let i = 0; i < params.length; i++) {
    const value = boundValue(params[i]);
    if (value === UNBOUND) return undefined;
    values[i] = value;
  }
  return values;
}

type CompiledQuery = Parameters<ReturnType<BaseSqliteConnection['getClient']>['executeQuery']>[0];
let queryCount = 0;

/** Kysely's CompiledQuery for raw SQL with bound parameters, shaped as its CompiledQuery.raw builds it. */
function boundQuery(sql: string, parameters: readonly unknown[]): CompiledQuery {
  return {
    sql,
    parameters,
    query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] },
    queryId: { queryId: `bound-${++queryCount}` },
  } as unknown as CompiledQuery;
}

class BoundSqliteConnection extends BaseSqliteConnection {
  override async execute<T>(...args: ExecuteArgs): Promise<T> {
    const [query, params = [], method = 'all', ctx, loggerContext] = args;
    const context = loggerContext as Record<string, unknown> | undefined;
    if (!Array.isArray(params) || context?.signal != null || context?.inflightQueryAbortStrategy != null) return super.execute<T & object>(...args) as Promise<T>;
    let sql: string;
    let values: readonly unknown[] = params;
    let fragment: string | RawQueryFragment = query as string;
    if (query instanceof NativeQueryBuilder) fragment = query.toRaw();
    if (isRaw(fragment)) {
      sql = fragment.sql;
      values = fragment.params;
    } else {
      sql = fragment;
    }
    // MikroORM's query hook (identity unless configured; this server configures none) sees the query first.
    sql = this.config.get('onQuery')(sql, values);
    const bound = bindableParameters(sql, values);
    if (!bound) return super.execute<T & object>(fragment, isRaw(fragment) ? [] : params, method, ctx, loggerContext) as Promise<T>;
    await this.ensureConnection();
    return this.executeQuery(
      sql,
      async () => this.transformRawResult<T>(await (ctx ?? this.getClient()).executeQuery(boundQuery(sql, bound)), method),
      { query: sql, params: values as unknown[], ...context },
    );
  }
}

/** SqliteDriver whose connection binds values (BoundSqliteConnection); everything else is MikroORM's. */
export class BoundSqliteDriver extends SqliteDriver {
  constructor(config: Configuration) {
    super(config);
    // SqliteDriver builds its connection from a class fixed in its constructor; this one replaces it before
    // anything connects (the driver opens it at MikroORM.connect()).
    Object.defineProperty(this, 'connection', { value: new BoundSqliteConnection(this.config), writable: true, enumerable: true, configurable: true });
  }
}
