/**
 * The classifier of "the database is unavailable" errors (server/storage/unavailable.ts) and what toAppError
 * makes of them (docs/deployment.md#when-the-database-is-down), on errors the drivers really raise: `pg`
 * against a closed port, a silent listener, a full pool, a terminated backend and a role over its connection
 * limit; the server's own storage (MikroORM over pg) with its pool exhausted and sessions terminated, in and
 * out of transactions; mysql2 against a closed port and on a killed connection, and the server's storage over
 * MariaDB after killed transactions. Errors that are not outages (a unique violation, a syntax error, a bug)
 * stay internal. The log line of an outage is one warning with the driver's reason, no secret.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import mysql from 'mysql2';
import pino from 'pino';
import { isStoreUnavailable } from '../../server/storage/unavailable.ts';
import { AppError, logConverted, STORE_UNAVAILABLE_RETRY_AFTER_SECONDS, toAppError } from '../../server/kernel/errors.ts';
import { CONNECT_TIMEOUT_MS } from '../../server/storage/orm-options.ts';
import type { Storage } from '../../server/storage/types.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { freePort } from '../support/throwaway-postgres.ts';
import { openTestStorage } from './open-test-storage.ts';

/** The rejection of `work`; fails the test when it resolves. */
async function rejection(work: Promise<unknown>): Promise<any> {
  try {
    await work;
  } catch (err) {
    return err;
  }
  assert.fail('expected a rejection');
}

function assertUnavailable(err: unknown, label: string): void {
  assert.ok(isStoreUnavailable(err), `${label} is an outage: ${(err as Error)?.message}`);
  const refusal = toAppError(err, 'req-1');
  assert.equal(refusal.kind, 'unavailable', label);
  assert.equal(refusal.retryAfterSeconds, STORE_UNAVAILABLE_RETRY_AFTER_SECONDS);
  assert.equal(refusal.message, 'service temporarily unavailable, retry later (request id req-1)');
}

function assertNotUnavailable(err: unknown, label: string): void {
  assert.equal(isStoreUnavailable(err), false, `${label} is not an outage: ${(err as Error)?.message}`);
  assert.equal(toAppError(err, 'req-1').kind, 'internal', label);
}

/** A TCP listener that accepts connections and never says a word (a database host that hangs). */
async function silentListener(): Promise<{ port: number; server: Server }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe('PostgreSQL (pg) errors', () => {
  let db: TestDatabase;
  let url: URL;
  before(async () => {
    db = await createTestDatabase('postgres');
    url = new URL(db.flags[db.flags.indexOf('--database-url') + 1]!);
  });
  after(() => db?.cleanup());
  const clientOptions = () => ({ host: url.hostname, port: Number(url.port), user: url.username, database: db.name });

  test('a refused connection (ECONNREFUSED), also when localhost resolves to several addresses', async () => {
    const port = await freePort();
    for (const host of ['127.0.0.1', 'localhost']) {
      const err = await rejection(new pg.Client({ host, port, user: 'postgres' }).connect());
      assertUnavailable(err, `pg connect to ${host}`);
    }
  });

  test('a host that accepts and never answers: the connect timeout, of the client and of the pool', async () => {
    const silent = await silentListener();
    try {
      const client = await rejection(new pg.Client({ host: '127.0.0.1', port: silent.port, user: 'postgres', connectionTimeoutMillis: 200 }).connect());
      assert.equal(client.message, 'timeout expired');
      assertUnavailable(client, 'pg client connect timeout');
      const pool = new pg.Pool({ host: '127.0.0.1', port: silent.port, user: 'postgres', connectionTimeoutMillis: 200 });
      const pooled = await rejection(pool.query('select 1'));
      assertUnavailable(pooled, 'pg-pool connect timeout');
      await pool.end();
    } finally {
      silent.server.close();
    }
  });

  test('a pool with no free client within its timeout, a terminated backend (57P01), a pool already ended', async () => {
    const pool = new pg.Pool({ ...clientOptions(), max: 1, connectionTimeoutMillis: 200 });
    const held = await pool.connect();
    const waited = await rejection(pool.connect());
    assert.equal(waited.message, 'timeout exceeded when trying to connect');
    assertUnavailable(waited, 'pg-pool wait');
    const terminated = await rejection(held.query('select pg_terminate_backend(pg_backend_pid())'));
    assert.equal(terminated.code, '57P01');
    assertUnavailable(terminated, 'admin shutdown of the backend');
    held.release(true);
    assert.equal((await pool.query('select 1 as one')).rows[0].one, 1, 'the pool opens a new connection');
    await pool.end();
    assertUnavailable(await rejection(pool.query('select 1')), 'a query on an ended pool');
  });

  test('a role over its connection limit (53300)', async () => {
    const role = `portcullis_limited_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client(clientOptions());
    await admin.connect();
    try {
      await admin.query(`create role ${role} login connection limit 0`);
      const err = await rejection(new pg.Client({ ...clientOptions(), user: role }).connect());
      assert.equal(err.code, '53300');
      assertUnavailable(err, 'too many connections');
    } finally {
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    }
  });

  test('not outages: a unique violation, a syntax error, a plain bug', async () => {
    const client = new pg.Client(clientOptions());
    await client.connect();
    try {
      await client.query('create temporary table t (id int primary key)');
      await client.query('insert into t values (1)');
      assertNotUnavailable(await rejection(client.query('insert into t values (1)')), 'unique violation 23505');
      assertNotUnavailable(await rejection(client.query('selec 1')), 'syntax error 42601');
    } finally {
      await client.end();
    }
    assertNotUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"), 'a bug');
    assertNotUnavailable(undefined, 'nothing');
  });
});

describe("the server's storage over PostgreSQL (MikroORM, the server's pool settings)", () => {
  let db: TestDatabase;
  let storage: Storage;
  before(async () => {
    db = await createTestDatabase('postgres');
    storage = await openTestStorage(db.flags);
  });
  after(async () => {
    await storage?.close();
    await db?.cleanup();
  });

  test(`with every pooled connection busy, a query is refused as unavailable after ${CONNECT_TIMEOUT_MS} ms, not 10 s or a hang`, async () => {
    const busy = Array.from({ length: 10 }, () => storage.fork().getConnection().execute('select pg_sleep(4)'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const err = await rejection(storage.fork().getConnection().execute('select 1'));
    const waited = performance.now() - started;
    assertUnavailable(err, 'pool acquire timeout through MikroORM');
    assert.ok(waited >= CONNECT_TIMEOUT_MS - 100 && waited < CONNECT_TIMEOUT_MS + 1_500, `refused after ${Math.round(waited)} ms`);
    await Promise.all(busy);
    assert.deepEqual(await storage.fork().getConnection().execute('select 1 as one'), [{ one: 1 }], 'served again once a connection is free');
  });

  test('transactions whose connection dies leak no pooled connection: after more of them than the pool holds, queries are served', async () => {
    // A failed rollback never gives its connection back through Kysely (ControlledTransaction.rollback releases
    // only after a successful ROLLBACK); the pool's client gives itself back when its connection is lost.
    for (let i = 0; i < 12; i++) {
      const err = await rejection(
        storage.fork().transactional(async (em) => {
          await em.getConnection().execute('select pg_terminate_backend(pg_backend_pid())', [], 'all', em.getTransactionContext());
        }),
      );
      assertUnavailable(err, `transaction ${i + 1}`);
    }
    const started = performance.now();
    assert.deepEqual(await storage.fork().getConnection().execute('select 1 as one'), [{ one: 1 }]);
    assert.ok(performance.now() - started < 1_000, 'served at once, not after waiting for a pooled connection');
  });

  test('a session terminated under MikroORM is an outage; the pool then serves again', async () => {
    const err = await rejection(storage.fork().getConnection().execute('select pg_terminate_backend(pg_backend_pid())'));
    assert.equal(err.code, '57P01');
    assertUnavailable(err, '57P01 through MikroORM');
    // The pool may hand the dead connection out once more before it hears of its end ("Connection terminated
    // unexpectedly"): that answer is an outage too, and the query after it is served on a new connection.
    for (let attempt = 1; ; attempt++) {
      try {
        assert.deepEqual(await storage.fork().getConnection().execute('select 1 as one'), [{ one: 1 }]);
        break;
      } catch (again) {
        assertUnavailable(again, `query ${attempt} after the termination`);
        assert.ok(attempt < 3, 'served again within three queries');
      }
    }
  });
});

describe('MySQL/MariaDB (mysql2) errors', () => {
  test('a refused connection (ECONNREFUSED)', async () => {
    const port = await freePort();
    const connection = mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    const err = await new Promise<unknown>((resolve) => connection.connect(resolve));
    assertUnavailable(err, 'mysql2 connect refused');
  });

  test('a connection the server killed (PROTOCOL_CONNECTION_LOST), then used again', async () => {
    const victim = mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' }).promise();
    const killer = mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' }).promise();
    try {
      const [rows] = (await victim.query('select connection_id() as id')) as unknown as [{ id: number }[]];
      const sleeping = rejection(victim.query('select sleep(5)'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await killer.query(`kill ${rows[0]!.id}`);
      const lost = await sleeping;
      assert.equal(lost.code, 'PROTOCOL_CONNECTION_LOST');
      assertUnavailable(lost, 'killed connection');
      assertUnavailable(await rejection(victim.query('select 1')), 'a closed connection used again');
    } finally {
      await killer.end();
    }
  });

  test('not outages: a duplicate key (ER_DUP_ENTRY), a syntax error', async () => {
    const connection = mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test' }).promise();
    try {
      await connection.query('create temporary table t (id int primary key)');
      await connection.query('insert into t values (1)');
      assertNotUnavailable(await rejection(connection.query('insert into t values (1)')), 'ER_DUP_ENTRY');
      assertNotUnavailable(await rejection(connection.query('selec 1')), 'ER_PARSE_ERROR');
    } finally {
      await connection.end();
    }
  });
});

describe("the server's storage over MariaDB (MikroORM over mysql2)", () => {
  let db: TestDatabase;
  let storage: Storage;
  before(async () => {
    db = await createTestDatabase('mariadb');
    storage = await openTestStorage(db.flags);
  });
  after(async () => {
    await storage?.close();
    await db?.cleanup();
  });

  test('transactions whose connection is killed leak no pooled connection: after more of them than the pool holds, queries are served', async () => {
    for (let i = 0; i < 12; i++) {
      const err = await rejection(
        storage.fork().transactional(async (em) => {
          await em.getConnection().execute('kill connection_id()', [], 'all', em.getTransactionContext());
        }),
      );
      assertUnavailable(err, `transaction ${i + 1}`);
    }
    const started = performance.now();
    assert.deepEqual(await storage.fork().getConnection().execute('select 1 as one'), [{ one: 1 }]);
    assert.ok(performance.now() - started < 1_000, 'served at once, not after waiting for a pooled connection');
  });
});

describe('shapes no driver here raises', () => {
  // knex is not a dependency (MikroORM 7 pools through kysely), so its acquire timeout is its documented text.
  test("knex's acquire timeout, an error wrapped as cause, an AggregateError of refusals", () => {
    assertUnavailable(Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }), 'knex');
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    assertUnavailable(new Error('query failed', { cause: refused }), 'wrapped as cause');
    assertUnavailable(new AggregateError([refused, refused]), 'AggregateError');
  });

  test('an AppError is answered as it is', () => {
    const refusal = AppError.invalid('bad');
    assert.equal(toAppError(refusal, 'req-1'), refusal);
  });
});

describe('the log line of an outage', () => {
  test('one warning with the reason and code, no error object, no password', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const log = pino({ level: 'debug' }, sink);
    const port = await freePort();
    const err = Object.assign(await rejection(new pg.Client({ host: '127.0.0.1', port, user: 'postgres' }).connect()), {
      message: `connect ECONNREFUSED 127.0.0.1:${port} (postgres://app:hunter2secret@127.0.0.1:${port}/db)`,
    });
    logConverted(log, err, toAppError(err, 'req-9'), { requestId: 'req-9' }, 'unexpected');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 1);
    const [line] = lines;
    assert.equal(line!.level, 40, 'warn');
    assert.equal(line!.code, 'ECONNREFUSED');
    assert.equal(line!.requestId, 'req-9');
    assert.match(String(line!.reason), /^connect ECONNREFUSED 127\.0\.0\.1:\d+ \(postgres:\/\/app:\[redacted\]@/);
    assert.equal(line!.err, undefined, 'no error object, no stack');
    assert.doesNotMatch(JSON.stringify(line), /hunter2secret/);
  });
});
