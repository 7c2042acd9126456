/**
 * The SQLite connection under MikroORM: node:sqlite (no native addon), opened with the settings every
 * connection needs, and with its prepared statements kept for reuse.
 *
 * MikroORM's own NodeSqliteDialect prepares every statement on every call (about 20-50 microseconds each,
 * 5% of the main thread in a profile of token validation). Here a statement is kept, in a bounded
 * least-recently-used map, when its text is a template with `?` placeholders (sqlite-driver.ts binds the
 * values instead of writing them into the text, so one text serves every call of a query) or a transaction
 * control statement; other texts carry their values and are prepared per call as before. A kept statement
 * stays right across schema changes: sqlite3_prepare_v2 statements are re-prepared by SQLite itself when
 * the schema they were compiled against changes (SQLite "Compiling An SQL Statement", SQLITE_SCHEMA).
 *
 * Kysely's SqliteDialect is @mikro-orm/sql's own pinned dependency (one hoisted copy), the class MikroORM's
 * NodeSqliteDialect extends.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteDialect } from 'kysely';

/**
 * Per-connection settings, applied whenever a connection is opened (MikroORM may reopen it):
 * - WAL: readers are not blocked by the writer, and a commit appends to the log instead of rewriting pages.
 * - synchronous = FULL, not NORMAL: with NORMAL a committed transaction can roll back after a power loss or
 *   an OS crash (SQLite "WAL mode" docs), and here a commit can be a logout, a revocation or a password
 *   change whose effect must not silently come back; the fsync per commit is kept (ASVS 3.3, session
 *   termination that lasts).
 * - busy_timeout: waits out a competing writer (another process on the same file) instead of failing.
 * - foreign_keys: enforced (off by default in SQLite).
 */
export const SQLITE_PRAGMAS: readonly string[] = [
  'pragma journal_mode = wal',
  'pragma synchronous = full',
  'pragma busy_timeout = 5000',
  'pragma foreign_keys = on',
];

/** Statements kept per connection; a query shape is one entry, and the server has a few hundred at most. */
export const STATEMENT_CACHE_SIZE = 256;

/** Transaction control has no values and runs on every write: worth keeping though it has no `?`. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

/** What Kysely's SQLite driver calls on a statement (its better-sqlite3-shaped interface). */
interface KyselyStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(parameters: readonly unknown[]): unknown;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

type Bindable = Parameters<StatementSync['all']>;

/** As MikroORM's NodeSqliteDialect decides it: a statement that answers rows. */
function isReader(sql: string): boolean {
  return /^\s*(select|pragma|explain|with)/i.test(sql) || /\breturning\b/i.test(sql);
}

export function isCacheable(sql: string): boolean {
  return sql.includes('?') || TRANSACTION_CONTROL.test(sql);
}

/** A bounded map of prepared statements by text, least recently used evicted first. */
export class StatementCache {
  readonly #db: Pick<DatabaseSync, 'prepare'>;
  readonly #limit: number;
  readonly #kept = new Map<string, KyselyStatement>();
  #prepared = 0;

  constructor(db: Pick<DatabaseSync, 'prepare'>, limit = STATEMENT_CACHE_SIZE) {
    this.#db = db;
    this.#limit = limit;
  }

  /** How many statements SQLite has compiled so far (for tests and profiles). */
  get prepared(): number {
    return this.#prepared;
  }

  get size(): number {
    return this.#kept.size;
  }

  #compile(sql: string): KyselyStatement {
    const stmt = this.#db.prepare(sql);
    this.#prepared++;
    const db = this.#db;
    return {
      reader: isReader(sql),
      all: (params) => stmt.all(...(params as Bindable)),
      run: (params) => stmt.run(...(params as Bindable)),
      get: (params) => stmt.get(...(params as Bindable)),
      // An iteration holds its statement open across awaits: it gets a statement of its own, never a kept one.
      iterate: (params) => db.prepare(sql).iterate(...(params as Bindable)) as IterableIterator<unknown>,
    };
  }

  prepare(sql: string): KyselyStatement {
    if (!isCacheable(sql)) return this.#compile(sql);
    const kept = this.#kept.get(sql);
    if (kept) {
      // Re-inserted so that the map's order stays least recently used first.
      this.#kept.delete(sql);
      this.#kept.set(sql, kept);
      return kept;
    }
    const compiled = this.#compile(sql);
    this.#kept.set(sql, compiled);
    if (this.#kept.size > this.#limit) this.#kept.delete(this.#kept.keys().next().value!);
    return compiled;
  }

  clear(): void {
    this.#kept.clear();
  }
}

/** Opens the file with SQLITE_PRAGMAS applied; statements are kept per connection and dropped on close. */
export class CachingSqliteDialect extends SqliteDialect {
  constructor(file: string) {
    const { DatabaseSync: Database } = process.getBuiltinModule('node:sqlite');
    super({
      database: async () => {
        const db = new Database(file);
        for (const pragma of SQLITE_PRAGMAS) db.exec(pragma);
        const statements = new StatementCache(db);
        return {
          prepare: (sql: string) => statements.prepare(sql),
          close: () => {
            statements.clear();
            db.close();
          },
        };
      },
    });
  }
}
