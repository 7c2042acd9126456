/**
 * The parts of the token state cache on their own: the bounded map, the invalidation ledger and the read
 * race it closes, shared reads, the transaction hooks that hold an invalidation until its commit, and the
 * channel's message format (anything unreadable is refused).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMap } from '../../../server/kernel/bounded-map.ts';
import { InvalidationLedger } from '../../../server/modules/tokens/state-cache/invalidation-ledger.ts';
import { CachedTable } from '../../../server/modules/tokens/state-cache/cached-table.ts';
import { TokenStateHooks } from '../../../server/modules/tokens/state-cache/transaction-hooks.ts';
import { decodeMessage, encodeHeartbeat, encodeInvalidations } from '../../../server/modules/tokens/state-cache/channel.ts';
import type { EntityManager, TransactionEventArgs } from '@mikro-orm/core';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('BoundedMap', () => {
  test('holds at most its bound, evicting the oldest written, and reports what it evicts', () => {
    const evicted: string[] = [];
    const map = new BoundedMap<string, number>(3, (key) => evicted.push(key));
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, i);
    assert.equal(map.size, 3);
    assert.equal(map.get('a'), undefined);
    map.set('b', 10); // rewritten: now the newest
    map.set('e', 4);
    assert.deepEqual(evicted, ['a', 'c']);
    assert.equal(map.get('b'), 10);
  });

  test('10,000 distinct keys through a map of 100 leave 100', () => {
    const map = new BoundedMap<number, number>(100);
    for (let i = 0; i < 10_000; i++) map.set(i, i);
    assert.equal(map.size, 100);
    assert.equal(map.get(9_999), 9_999);
  });
});

describe('InvalidationLedger', () => {
  test('an answer read before an invalidation of one of its keys is stale; other keys are untouched', () => {
    const ledger = new InvalidationLedger(100);
    const readAt = ledger.epoch;
    ledger.invalidate(['u:1']);
    assert.equal(ledger.unchangedSince(readAt, ['u:1', 's:9']), false);
    assert.equal(ledger.unchangedSince(readAt, ['u:2']), true);
    assert.equal(ledger.unchangedSince(ledger.epoch, ['u:1']), true, 'a read after the invalidation counts');
  });

  test('invalidateAll makes every earlier read stale', () => {
    const ledger = new InvalidationLedger(100);
    const readAt = ledger.epoch;
    ledger.invalidateAll();
    assert.equal(ledger.unchangedSince(readAt, ['u:2']), false);
    assert.equal(ledger.unchangedSince(ledger.epoch, ['u:2']), true);
  });

  test('forgetting a key past the bound can only make answers stale, never fresh', () => {
    const ledger = new InvalidationLedger(2);
    const readAt = ledger.epoch;
    ledger.invalidate(['u:1']);
    ledger.invalidate(['u:2']);
    ledger.invalidate(['u:3']); // u:1 forgotten
    assert.equal(ledger.unchangedSince(readAt, ['u:1']), false, 'the read before u:1 was invalidated is still stale');
    assert.equal(ledger.unchangedSince(readAt, ['u:9']), false, 'conservatively stale');
  });
});

describe('CachedTable', () => {
  const table = (ledger: InvalidationLedger, trustMs = 60_000, maxEntries = 100) =>
    new CachedTable<{ id: string; live: boolean }>({ ledger, maxEntries, trustMs: () => trustMs, keysOf: (v) => [`u:${v.id}`] });

  test('answers from memory after the first read, and reads again after an invalidation', async () => {
    const ledger = new InvalidationLedger(100);
    const users = table(ledger);
    let reads = 0;
    const load = async () => ({ id: '1', live: ++reads < 2 });
    assert.deepEqual(await users.read('1', load), { id: '1', live: true });
    assert.deepEqual(await users.read('1', load), { id: '1', live: true });
    assert.equal(reads, 1);
    ledger.invalidate(['u:1']);
    assert.deepEqual(await users.read('1', load), { id: '1', live: false });
    assert.equal(reads, 2);
  });

  test('a read that raced an invalidation is answered but not kept (the revoking commit landed during it)', async () => {
    const ledger = new InvalidationLedger(100);
    const users = table(ledger);
    const row = deferred<{ id: string; live: boolean }>();
    const racing = users.read('1', () => row.promise);
    ledger.invalidate(['u:1']); // the writer commits while the reader still waits for the old row
    row.resolve({ id: '1', live: true });
    await racing;
    assert.equal(users.size, 0, 'the possibly stale row was not stored');
    let reads = 0;
    await users.read('1', async () => ({ id: '1', live: (reads++, false) }));
    assert.equal(reads, 1, 'the next validation reads the database');
  });

  test('concurrent misses share one read, but a request after an invalidation never joins an older read', async () => {
    const ledger = new InvalidationLedger(100);
    const users = table(ledger);
    const first = deferred<{ id: string; live: boolean }>();
    let reads = 0;
    const load = () => (reads++, first.promise);
    const a = users.read('1', load);
    const b = users.read('1', load);
    assert.equal(reads, 1);
    ledger.invalidate(['u:1']);
    const c = users.read('1', async () => (reads++, { id: '1', live: false }));
    first.resolve({ id: '1', live: true });
    assert.equal((await a)!.live, true);
    assert.equal((await b)!.live, true);
    assert.equal((await c)!.live, false, 'the request after the invalidation read the database itself');
    assert.equal(reads, 2);
  });

  test('an entry older than the trust window is read again', async () => {
    const ledger = new InvalidationLedger(100);
    const users = table(ledger, 20);
    let reads = 0;
    const load = async () => (reads++, { id: '1', live: true });
    await users.read('1', load);
    await users.read('1', load);
    assert.equal(reads, 1);
    await new Promise((r) => setTimeout(r, 30));
    await users.read('1', load);
    assert.equal(reads, 2);
  });

  test('null (no such row) is not cached, and a failed read is not either', async () => {
    const ledger = new InvalidationLedger(100);
    const users = table(ledger);
    assert.equal(await users.read('1', async () => null), null);
    await assert.rejects(users.read('1', async () => Promise.reject(new Error('down'))), /down/);
    assert.equal(users.size, 0);
  });
});

describe('TokenStateHooks', () => {
  const fakeEm = (transaction?: object) =>
    ({ isInTransaction: () => transaction !== undefined, getTransactionContext: () => transaction }) as unknown as EntityManager;
  const args = (transaction: object) => ({ transaction }) as unknown as TransactionEventArgs;

  function recorder() {
    const now: string[][] = [];
    const committed: string[][] = [];
    const hooks = new TokenStateHooks({ invalidateNow: (k) => void now.push([...k]), invalidateCommitted: async (k) => void committed.push([...k]) });
    return { hooks, now, committed };
  }

  test('outside a transaction an invalidation is committed at once', () => {
    const { hooks, now, committed } = recorder();
    hooks.invalidate(fakeEm(), ['u:1']);
    assert.deepEqual(now, [['u:1']]);
    assert.deepEqual(committed, [['u:1']]);
  });

  test('inside a transaction it is applied at once and committed only when that transaction ends', () => {
    const { hooks, now, committed } = recorder();
    const tx = {};
    const other = {};
    hooks.afterTransactionStart(args(tx));
    hooks.afterTransactionStart(args(other));
    hooks.invalidate(fakeEm(tx), ['s:a']);
    hooks.invalidate(fakeEm(tx), ['u:1']);
    assert.deepEqual(now, [['s:a'], ['u:1']]);
    hooks.afterTransactionCommit(args(other));
    assert.deepEqual(committed, [], 'another transaction committing changes nothing');
    hooks.afterTransactionCommit(args(tx));
    assert.deepEqual(committed, [['s:a', 'u:1']]);
  });

  test('a savepoint hands its invalidations to the open transaction around it; a nested begin on one context waits for its outer end', () => {
    const { hooks, committed } = recorder();
    const outer = {};
    const savepoint = { savepointName: 'trx1' };
    hooks.afterTransactionStart(args(outer));
    hooks.afterTransactionStart(args(savepoint));
    hooks.invalidate(fakeEm(savepoint), ['u:1']);
    hooks.afterTransactionCommit(args(savepoint));
    assert.deepEqual(committed, [], 'releasing a savepoint commits nothing');
    hooks.afterTransactionCommit(args(outer));
    assert.deepEqual(committed, [['u:1']]);

    const session = {}; // MongoDB nests in one session object
    hooks.afterTransactionStart(args(session));
    hooks.afterTransactionStart(args(session));
    hooks.invalidate(fakeEm(session), ['u:2']);
    hooks.afterTransactionCommit(args(session));
    assert.equal(committed.length, 1);
    hooks.afterTransactionCommit(args(session));
    assert.deepEqual(committed[1], ['u:2']);
  });

  test('a rolled back transaction still re-applies (an extra read, never a stale answer)', () => {
    const { hooks, committed } = recorder();
    const tx = {};
    hooks.afterTransactionStart(args(tx));
    hooks.invalidate(fakeEm(tx), ['u:1']);
    hooks.afterTransactionRollback(args(tx));
    assert.deepEqual(committed, [['u:1']]);
  });
});

describe('channel messages', () => {
  test('invalidations and heartbeats round-trip; long key lists are split', () => {
    const keys = Array.from({ length: 250 }, (_, i) => `u:${i}`);
    const messages = encodeInvalidations('me', keys);
    assert.equal(messages.length, 3);
    assert.deepEqual(messages.flatMap((m) => (decodeMessage(m) as { keys: string[] }).keys), keys);
    assert.ok(messages.every((m) => Buffer.byteLength(m) < 8000), 'within the PostgreSQL NOTIFY payload limit');
    assert.deepEqual(decodeMessage(encodeHeartbeat('me')), { origin: 'me', heartbeat: true });
  });

  test('anything else is unreadable', () => {
    for (const text of ['', 'null', '[]', '{"o":1,"k":[]}', '{"o":"x","k":"u:1"}', '{"o":"x","k":["x:1"]}', '{"o":"x","k":["u:a b"]}', '{"o":"x"}', '{']) {
      assert.equal(decodeMessage(text), undefined, text);
    }
  });
});

describe('TokenStateCacheImpl bounds', () => {
  test('many distinct tokens never hold more claims than the bound, and the sweep drops expired ones', async () => {
    const { TokenStateCacheImpl, DEFAULT_LIMITS } = await import('../../../server/modules/tokens/state-cache/token-state-cache.ts');
    const subscribers: unknown[] = [];
    const storage = { orm: { em: { getEventManager: () => ({ registerSubscriber: (s: unknown) => subscribers.push(s) }) } } };
    const logger = { warn() {}, error() {}, info() {} };
    const cache = new TokenStateCacheImpl(storage as never, logger as never, { ...DEFAULT_LIMITS, maxEntries: 50 });
    try {
      assert.equal(subscribers.length, 1, 'its hooks are registered on the ORM it was given');
      const exp = Math.floor(Date.now() / 1000) + 60;
      for (let i = 0; i < 5000; i++) cache.rememberClaims(`hash-${i}`, { sub: 'u', exp });
      assert.equal(cache.sizes().claims, 50);
      assert.deepEqual(cache.verifiedClaims('hash-4999'), { sub: 'u', exp });
      assert.ok(Object.isFrozen(cache.verifiedClaims('hash-4999')), 'callers cannot change what later hits answer');
      cache.rememberClaims('expired', { sub: 'u', exp: Math.floor(Date.now() / 1000) - 1 });
      cache.sweep();
      assert.equal(cache.verifiedClaims('expired'), undefined);
      assert.equal(cache.sizes().claims, 49);
    } finally {
      await cache.close();
    }
  });

  test('trust is long only while the channel delivers: up, silence past the health window, down', async () => {
    const { TokenStateCacheImpl, DEFAULT_LIMITS } = await import('../../../server/modules/tokens/state-cache/token-state-cache.ts');
    const storage = { orm: { em: { getEventManager: () => ({ registerSubscriber() {} }) } } };
    const warnings: string[] = [];
    const logger = { warn: (msg: string) => warnings.push(msg), error() {}, info() {} };
    const cache = new TokenStateCacheImpl(storage as never, logger as never, { ...DEFAULT_LIMITS, healthWindowMs: 50 });
    try {
      assert.equal(cache.trustMs(), 100, 'no channel: 100 ms');
      cache.up();
      assert.equal(cache.trustMs(), 10_000);
      await new Promise((r) => setTimeout(r, 80));
      assert.equal(cache.trustMs(), 100, 'no heartbeat within the window: back to 100 ms');
      cache.message('{"o":"other","h":1}');
      assert.equal(cache.trustMs(), 10_000);
      cache.message('not json');
      assert.equal(warnings.length, 1, 'an unreadable message is reported (and everything cached forgotten)');
      cache.down('test');
      assert.equal(cache.trustMs(), 100);
    } finally {
      await cache.close();
    }
  });
});
