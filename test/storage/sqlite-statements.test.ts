/**
 * SQLite statements (storage/sqlite-driver.ts, storage/sqlite-dialect.ts): values bound instead of written
 * into the SQL text, exactly as SQLite would have read the text MikroORM formats; prepared statements kept
 * per query shape, right across schema changes; the connection settings on every connection.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SqlitePlatform } from '@mikro-orm/sql';
import { bindableParameters, boundValue } from '../../server/storage/sqlite-driver.ts';
import { SQLITE_PRAGMAS, StatementCache, isCacheable } from '../../server/storage/sqlite-dialect.ts';
import { openTestStorage } from './open-test-storage.ts';
import { Gadget } from './contract-entities.ts';

const dir = mkdtempSync(join(tmpdir(), 'portcullis-sqlite-statements-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('binding values', () => {
  test('a value is bound as SQLite reads its literal: whole numbers and booleans as integers, dates as epoch ms', () => {
    assert.equal(boundValue(5), 5n);
    assert.equal(boundValue(-0), 0n);
    assert.equal(boundValue(3.5), 3.5);
    assert.equal(boundValue(true), 1n);
    assert.equal(boundValue(false), 0n);
    assert.equal(boundValue(null), null);
    assert.equal(boundValue(undefined), null);
    assert.equal(boundValue('x'), 'x');
    assert.equal(boundValue(new Date(1_700_000_000_123)), 1_700_000_000_123n);
    assert.deepEqual(boundValue(Buffer.from('ab')), Buffer.from('ab'));
    assert.equal(boundValue(1e21), 1e21, 'written 1e+21, a REAL to SQLite');
    assert.equal(boundValue(2 ** 63), 2 ** 63, 'past int64, SQLite reads the digits as a REAL');
  });

  test('values whose literal is not a plain value are left to MikroORM formatting', () => {
    const left = [Number.NaN, Number.POSITIVE_INFINITY, new Date(Number.NaN), ['a'], { a: 1 }, new Uint8Array(2), Symbol('s')];
    for (const value of left) assert.equal(bindableParameters('select ?', [value]), undefined, String(value?.toString?.()));
  });

  test('only texts whose every ? is a placeholder are bound', () => {
    assert.deepEqual(bindableParameters('select * from t where a = ? and b = ?', ['x', 2]), ['x', 2n]);
    assert.equal(bindableParameters("select * from t where a = ? and b = '?'", ['x']), undefined, 'a ? inside a literal');
    assert.equal(bindableParameters('select json_extract(a, "$.b") from t where c = ?', [1]), undefined);
    assert.equal(bindableParameters('select ?? from t where a = ?', ['col', 1]), undefined, 'identifier placeholder');
    assert.equal(bindableParameters('select * from t where a = \\? and b = ?', [1]), undefined, 'escaped ?');
    assert.equal(bindableParameters('select * from t where a in (?)', [1, 2]), undefined, 'count differs');
    assert.equal(bindableParameters('select 1', []), undefined, 'nothing to bind');
  });

  test('a bound row is stored exactly as the formatted text would have stored it, column type by column type', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('create table t (k integer, s varchar(255), d datetime, i integer, r real, j json, b boolean, x blob, n text)');
    const platform = new SqlitePlatform();
    const sql = 'insert into t (k, s, d, i, r, j, b, x, n) values (?, ?, ?, ?, ?, ?, ?, ?, ?)';
    const rows: unknown[][] = [
      [1, 'plain', new Date(1_700_000_000_123), 42, 2.5, '["user"]', true, Buffer.from('blob'), null],
      [2, 5, 1_700_000_000_123, -7, 3, '{}', false, null, 12],
      [3, "it's; drop table t; --", new Date(0), 2 ** 53 - 1, 0.1, 'null', 0, null, 'é ✓ z'],
      [4, '', new Date(-1), 0, -0, '[]', 1, null, 1.25],
    ];
    for (const row of rows) {
      const formatted = row.map((value, i) => (i === 0 ? (value as number) + 100 : value));
      db.exec(platform.formatQuery(sql, formatted));
      const values = bindableParameters(sql, row);
      assert.ok(values, `row ${row[0]} binds`);
      db.prepare(sql).run(...(values as never[]));
    }
    const columns = ['s', 'd', 'i', 'r', 'j', 'b', 'x', 'n'];
    const read = db.prepare(`select k, ${columns.map((c) => `${c}, typeof(${c}) as t_${c}`).join(', ')} from t order by k`).all();
    const bound = read.filter((row) => Number(row.k) < 100).map((row) => ({ ...row }));
    const formatted = read.filter((row) => Number(row.k) > 100).map((row) => ({ ...row, k: Number(row.k) - 100 }));
    assert.deepEqual(bound, formatted);
    assert.equal(db.prepare('select count(*) as n from t').get()?.n, 8, 'the quoted text stayed a value');
  });
});

describe('statement cache', () => {
  test('one statement per query shape; texts that carry their values are prepared per call', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('create table t (id integer primary key, name text)');
    const cache = new StatementCache(db);
    for (let i = 0; i < 5; i++) cache.prepare('insert into t (id, name) values (?, ?)').run([BigInt(i), `n${i}`]);
    assert.equal(cache.prepared, 1);
    for (let i = 0; i < 3; i++) cache.prepare('begin').run([]), cache.prepare('commit').run([]);
    assert.equal(cache.prepared, 3, 'transaction control is kept');
    cache.prepare("select * from t where name = 'n1'").all([]);
    cache.prepare("select * from t where name = 'n1'").all([]);
    assert.equal(cache.prepared, 5, 'a text with its values inside is not kept');
    assert.equal(cache.size, 3);
    assert.equal(isCacheable('pragma foreign_keys = on'), false);
  });

  test('the least recently used statement goes first once the bound is reached', () => {
    const db = new DatabaseSync(':memory:');
    const cache = new StatementCache(db, 2);
    cache.prepare('select ? as a');
    cache.prepare('select ? as b');
    cache.prepare('select ? as a');
    cache.prepare('select ? as c');
    assert.equal(cache.size, 2);
    const before = cache.prepared;
    cache.prepare('select ? as a');
    assert.equal(cache.prepared, before, 'a stayed: it was used more recently than b');
    cache.prepare('select ? as b');
    assert.equal(cache.prepared, before + 1, 'b was evicted');
  });

  test('a kept statement follows schema changes (SQLite re-prepares it)', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('create table t (id integer primary key, name text)');
    const cache = new StatementCache(db);
    cache.prepare('insert into t (id, name) values (?, ?)').run([1n, 'a']);
    assert.deepEqual({ ...cache.prepare('select * from t where id = ?').all([1n])[0] as object }, { id: 1, name: 'a' });
    db.exec('alter table t add column extra text');
    db.exec("update t set extra = 'x'");
    assert.deepEqual({ ...cache.prepare('select * from t where id = ?').all([1n])[0] as object }, { id: 1, name: 'a', extra: 'x' });
    db.exec('drop table t');
    db.exec('create table t (id integer primary key, name text, other integer)');
    cache.prepare('insert into t (id, name) values (?, ?)').run([2n, 'b']);
    assert.deepEqual({ ...cache.prepare('select * from t where id = ?').all([2n])[0] as object }, { id: 2, name: 'b', other: null });
    assert.equal(cache.prepared, 2, 'still the two statements first prepared');
  });

  test('an iteration gets a statement of its own, so a kept one can run meanwhile', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('create table t (id integer primary key)');
    db.exec('insert into t values (1), (2), (3)');
    const cache = new StatementCache(db);
    const sql = 'select id from t where id >= ? order by id';
    const seen: number[] = [];
    for (const row of cache.prepare(sql).iterate([1n]) as Iterable<{ id: number }>) {
      seen.push(row.id);
      assert.equal(cache.prepare(sql).all([3n]).length, 1);
    }
    assert.deepEqual(seen, [1, 2, 3]);
  });
});

describe('the SQLite connection of the server', () => {
  test('WAL, synchronous FULL, busy timeout and foreign keys are set on the connection', async () => {
    const storage = await openTestStorage(['--database-type', 'sqlite', '--database-url', join(dir, 'pragmas.db')]);
    try {
      const connection = storage.fork().getConnection();
      const read = async (pragma: string) => Object.values(((await connection.execute(`pragma ${pragma}`)) as Record<string, unknown>[])[0]!)[0];
      assert.equal(await read('journal_mode'), 'wal');
      assert.equal(await read('synchronous'), 2, 'FULL: a committed logout survives a power loss');
      assert.equal(await read('busy_timeout'), 5000);
      assert.equal(await read('foreign_keys'), 1);
      assert.ok(SQLITE_PRAGMAS.length >= 4);
    } finally {
      await storage.close();
    }
  });

  test('ORM reads and writes with hostile-looking values, lists and JSON give back what was stored', async () => {
    const storage = await openTestStorage(['--database-type', 'sqlite', '--database-url', join(dir, 'values.db')]);
    try {
      const em = storage.fork();
      const madeAt = new Date(1_700_000_000_123);
      const names = ["o'brien", 'x?y', '"; drop table contract_gadgets; --', '??', '\\?'];
      names.forEach((name, i) => em.create(Gadget, { id: `g${i}`, code: name, email: `${i}@example.com`, displayName: name, count: i, madeAt, data: { tags: [name] } }));
      await em.flush();
      const fresh = storage.fork();
      for (const [i, name] of names.entries()) {
        const found = await fresh.findOneOrFail(Gadget, { code: name });
        assert.deepEqual([found.id, found.displayName, found.count, found.madeAt.getTime(), found.data], [`g${i}`, name, i, madeAt.getTime(), { tags: [name] }]);
      }
      assert.equal(await fresh.count(Gadget, { code: { $in: names } }), names.length, 'an $in list');
      assert.equal(await fresh.count(Gadget, { madeAt: { $lt: new Date(madeAt.getTime() + 1) }, count: { $gte: 2 } }), 3);
      assert.equal(await fresh.nativeUpdate(Gadget, { code: names[1] }, { count: 40 }), 1);
      assert.equal((await storage.fork().findOneOrFail(Gadget, { id: 'g1' })).count, 40);
    } finally {
      await storage.close();
    }
  });
});
