/**
 * Runs one parameterised SELECT on the database behind a Storage, below the ORM: the exceptions to
 * storage/types.ts rule 8 (no raw SQL in modules), each a hot read where MikroORM's query builder costs
 * many times the query itself.
 *
 * - The FGA engine's reads (modules/fga/store/raw-tuple-reads.ts): a check makes several, and through the
 *   query builder each cost 0.2-0.8 ms (measured, 100,000 tuples) against 0.05-0.2 ms for the same seek as
 *   a bound statement, which alone broke the targets of bench/fga.ts.
 * - The account a password sign-in names (modules/users/sign-in-lookup.ts): every login reads it first, and
 *   em.findOne cost about 0.45 ms of CPU against 0.05 ms for the statement plus em.map (bench/login.ts).
 *
 * connection.execute() is cheaper than the query builder but splices the values into the SQL text, so
 * nothing can be prepared. Each kind uses the client MikroORM already holds (same pool, same connection
 * settings), with the values bound by the driver, never written into the SQL:
 *
 * - PostgreSQL: the `pg` pool (connection.getNativeClient()) with named statements, so each pooled
 *   connection parses a statement once and then only binds and executes it (and, once PostgreSQL settles
 *   on a generic plan after five runs, stops planning it);
 * - MySQL/MariaDB: the `mysql2` pool's execute(), server-side prepared statements cached per connection;
 * - SQLite: MikroORM's Kysely client with a raw compiled query and bound parameters (the statement is kept
 *   by storage/sqlite-dialect.ts's cache).
 *
 * Reads run outside any transaction, as the ORM reads they replace did (a forked EntityManager): on SQLite's
 * one connection a read queued behind an open transaction would wait for it.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from '@mikro-orm/sql';
import type { Storage } from './types.ts';

export type Row = Record<string, unknown>;

/** A statement text with a stable name (PostgreSQL prepares it per connection under that name). */
export interface Statement {
  name: string;
  text: string;
}

export type SqlRunner = (statement: Statement, params: readonly unknown[]) => Promise<Row[]>;

export function statement(text: string): Statement {
  return { name: `bound_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
}

/** What the runner uses of `pg`'s Pool (pg ships no types here). */
interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

/** What the runner uses of `mysql2`'s callback Pool. */
interface MySqlPool {
  execute(sql: string, values: unknown[], callback: (err: Error | null, rows: unknown) => void): void;
}

interface NativeClientConnection {
  getNativeClient(): Promise<unknown>;
}

type CompiledQuery = Parameters<Kysely<unknown>['executeQuery']>[0];
let queryCount = 0;

/**
 * Kysely's CompiledQuery for raw SQL with bound parameters, shaped as its CompiledQuery.raw builds it
 * (kysely is MikroORM's dependency, not ours, so its constructor is not imported). Kysely keys per-query
 * state by the queryId object, so each query gets its own.
 */
function rawQuery(sql: string, parameters: readonly unknown[]): CompiledQuery {
  return {
    sql,
    parameters: [...parameters],
    query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] },
    queryId: { queryId: `bound-read-${++queryCount}` },
  } as unknown as CompiledQuery;
}

export function createSqlRunner(storage: Pick<Storage, 'kind' | 'fork'>): SqlRunner {
  // The driver's connection object lives as long as the ORM; fork() only to reach it, once. Its native
  // client is asked for on every read: getNativeClient() reconnects a closed connection, as the ORM does.
  let cached: unknown;
  const connection = () => (cached ??= storage.fork().getConnection());
  switch (storage.kind) {
    case 'postgres': {
      const pool = () => (connection() as NativeClientConnection).getNativeClient() as Promise<PgPool>;
      return async (stmt, params) => (await (await pool()).query({ name: stmt.name, text: stmt.text, values: [...params] })).rows;
    }
    case 'mysql':
    case 'mariadb': {
      const pool = () => (connection() as NativeClientConnection).getNativeClient() as Promise<MySqlPool>;
      return async (stmt, params) => {
        const client = await pool();
        return new Promise<Row[]>((resolve, reject) =>
          client.execute(stmt.text, [...params], (err, rows) => (err ? reject(err) : resolve(rows as Row[]))),
        );
      };
    }
    case 'sqlite': {
      const kysely = () => (connection() as { getClient(): Kysely<unknown> }).getClient();
      return async (stmt, params) => (await kysely().executeQuery(rawQuery(stmt.text, params))).rows as Row[];
    }
    default:
      throw new Error(`no SQL runner for ${storage.kind}`);
  }
}
