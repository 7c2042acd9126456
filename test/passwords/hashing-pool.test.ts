/**
 * How many argon2 computations run at once (passwords/hashing-pool.ts): one per core on a pool of one thread
 * per core, one more waiting in libuv's queue, the rest queued in order in the process; the pool is sized at
 * process entry unless UV_THREADPOOL_SIZE is set.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  LIBUV_DEFAULT_POOL_SIZE,
  SlotQueue,
  argon2Slots,
  hashingConcurrency,
  libuvPoolSize,
  preferredPoolSize,
  sizeThreadPool,
} from '../../server/modules/passwords/hashing-pool.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../server/modules/passwords/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe('pool size and hashing concurrency', () => {
  test('the preferred pool has one thread per core', () => {
    assert.equal(preferredPoolSize(1), 1);
    assert.equal(preferredPoolSize(2), 2);
    assert.equal(preferredPoolSize(16), 16);
    assert.equal(preferredPoolSize(0), 1, 'a machine reporting no cores still gets a pool');
    assert.equal(preferredPoolSize(5000), 1024, 'libuv caps its pool at 1024');
  });

  test('hashes handed to libuv: every thread of a pool no larger than the cores, plus one queued ahead per thread', () => {
    assert.equal(hashingConcurrency(2, 2), 4, 'the preferred pool on 2 cores: 2 hashing, 2 waiting in libuv');
    assert.equal(hashingConcurrency(16, 16), 32);
    assert.equal(hashingConcurrency(1, 4), 2, 'a pool of one: one hashing, one waiting');
    assert.equal(hashingConcurrency(3, 8), 6, "an operator's pool smaller than the cores");
  });

  test('a pool larger than the cores keeps its spare threads: one hash per core, none queued ahead', () => {
    assert.equal(hashingConcurrency(4, 2), 2, "libuv's default pool on 2 cores: 2 hashes, 2 threads free");
    assert.equal(hashingConcurrency(17, 16), 16);
    assert.equal(hashingConcurrency(2, 1), 1);
    assert.equal(hashingConcurrency(4, 0), 1, 'a machine reporting no cores still hashes');
  });

  test('UV_THREADPOOL_SIZE is read as libuv reads it', () => {
    assert.equal(libuvPoolSize(undefined), LIBUV_DEFAULT_POOL_SIZE);
    assert.equal(libuvPoolSize('6'), 6);
    assert.equal(libuvPoolSize('0'), 1);
    assert.equal(libuvPoolSize('many'), 1);
    assert.equal(libuvPoolSize('5000'), 1024);
  });

  test('sizeThreadPool sets the variable when unset and keeps an operator value', () => {
    const unset: NodeJS.ProcessEnv = {};
    assert.equal(sizeThreadPool(unset, 8), 8);
    assert.equal(unset.UV_THREADPOOL_SIZE, '8');
    const chosen: NodeJS.ProcessEnv = { UV_THREADPOOL_SIZE: '3' };
    assert.equal(sizeThreadPool(chosen, 8), 3);
    assert.equal(chosen.UV_THREADPOOL_SIZE, '3');
  });

  test('the entry module sizes the real pool before it starts, unless the environment chose', () => {
    // A fresh process: import the module server/main.ts imports first, start the pool, count its threads.
    const script = [
      `await import(${JSON.stringify(join(ROOT, 'server', 'modules', 'passwords', 'size-thread-pool.ts'))});`,
      `const { readdirSync, readFileSync } = await import('node:fs');`,
      `const { pbkdf2 } = await import('node:crypto');`,
      `await new Promise((resolve) => pbkdf2('a', 'b', 1, 32, 'sha256', resolve));`,
      `const names = readdirSync('/proc/self/task').map((t) => readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim());`,
      `console.log(names.filter((n) => n.startsWith('libuv-worker')).length);`,
    ].join('\n');
    const threads = (env: NodeJS.ProcessEnv) =>
      Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' }).trim());
    const { UV_THREADPOOL_SIZE: _ignored, ...inherited } = process.env;
    assert.equal(threads(inherited), preferredPoolSize(availableParallelism()));
    assert.equal(threads({ ...inherited, UV_THREADPOOL_SIZE: '3' }), 3);
  });

  test('server/main.ts imports the sizing module before anything that could start the pool', async () => {
    const { readFileSync } = await import('node:fs');
    const main = readFileSync(join(ROOT, 'server', 'main.ts'), 'utf8');
    const imports = main.match(/^import\s+[^;]*;/gm) ?? [];
    // Only the Node version check (server/node-version.ts, no imports of its own) comes first.
    assert.deepEqual(imports.slice(0, 2), ["import './require-node.ts';", "import './modules/passwords/size-thread-pool.ts';"]);
    for (const file of ['require-node.ts', 'node-version.ts']) {
      const source = readFileSync(join(ROOT, 'server', file), 'utf8');
      assert.deepEqual((source.match(/^import\s+[^;]*;/gm) ?? []).filter((line) => !line.includes("'./node-version.ts'")), [], `${file} imports nothing else`);
    }
  });
});

describe('SlotQueue', () => {
  test('runs at most `limit` tasks at once and the rest in arrival order', async () => {
    const slots = new SlotQueue(2);
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const tasks = [0, 1, 2, 3, 4].map((n) =>
      slots.run(async () => {
        started.push(n);
        await new Promise<void>((resolve) => releases.push(resolve));
        return n;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [0, 1]);
    assert.equal(slots.running, 2);
    assert.equal(slots.waiting, 3);
    releases[1]!();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [0, 1, 2], 'a freed slot goes to the longest waiter');
    releases[0]!();
    await new Promise((resolve) => setImmediate(resolve));
    releases[2]!();
    await new Promise((resolve) => setImmediate(resolve));
    releases[3]!();
    releases[4]!();
    assert.deepEqual(await Promise.all(tasks), [0, 1, 2, 3, 4]);
    assert.deepEqual(started, [0, 1, 2, 3, 4]);
    assert.equal(slots.running, 0);
    assert.equal(slots.waiting, 0);
  });

  test('a failing task gives its slot back', async () => {
    const slots = new SlotQueue(1);
    await assert.rejects(slots.run(async () => { throw new Error('boom'); }), /boom/);
    await assert.rejects(slots.run(() => { throw new Error('sync boom'); }), /sync boom/);
    assert.equal(await slots.run(async () => 'next'), 'next');
    assert.equal(slots.running, 0);
  });

  test('refuses a limit that is not a whole number >= 1', () => {
    assert.throws(() => new SlotQueue(0), /whole number/);
    assert.throws(() => new SlotQueue(1.5), /whole number/);
  });
});

describe('argon2 work goes through the slots', () => {
  test('pool threads that finish a hash start the queued ones while the event loop is blocked', () => {
    // A fresh process with the preferred pool of 2 threads hands four verifications to libuv, then blocks
    // its event loop until the pool threads stop using CPU (read from /proc while blocked). The third and
    // fourth must have run meanwhile, each thread having taken one from libuv's queue: then all four answer
    // in the same turn once the loop is free. Were a queued one started by the event loop, it would answer
    // a whole hash after the others.
    const script = [
      `const { readdirSync, readFileSync } = await import('node:fs');`,
      `const { hashPassword, verifyPassword } = await import(${JSON.stringify(join(ROOT, 'server', 'modules', 'passwords', 'index.ts'))});`,
      `const { argon2Slots } = await import(${JSON.stringify(join(ROOT, 'server', 'modules', 'passwords', 'hashing-pool.ts'))});`,
      `const poolTicks = () => readdirSync('/proc/self/task').reduce((sum, tid) => {`,
      `  const stat = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8');`,
      `  if (!stat.includes('(libuv-worker)')) return sum;`,
      `  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');`,
      `  return sum + Number(fields[11]) + Number(fields[12]);`,
      `}, 0);`,
      `const stored = await hashPassword('Secret#123');`,
      `let began = performance.now(); await verifyPassword(stored, 'Secret#123'); const one = performance.now() - began;`,
      `const answeredAt = [];`,
      `const work = [0, 1, 2, 3].map((i) => verifyPassword(stored, 'Secret#123').then((ok) => { answeredAt[i] = performance.now(); return ok; }));`,
      `const handedToLibuv = argon2Slots().running;`,
      `const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);`,
      `sleep(one * 2);`,
      `for (let last = poolTicks(), idle = 0, deadline = performance.now() + 30000; idle < 5 && performance.now() < deadline; ) {`,
      `  sleep(Math.max(20, one));`,
      `  const now = poolTicks();`,
      `  idle = now === last ? idle + 1 : 0;`,
      `  last = now;`,
      `}`,
      `const results = await Promise.all(work);`,
      `console.log(JSON.stringify({ handedToLibuv, results, spreadMs: Math.max(...answeredAt) - Math.min(...answeredAt), oneMs: one }));`,
    ].join('\n');
    const { UV_THREADPOOL_SIZE: _ignored, ...inherited } = process.env;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...inherited, UV_THREADPOOL_SIZE: '2' },
      encoding: 'utf8',
    });
    const answer = JSON.parse(out.trim()) as { handedToLibuv: number; results: boolean[]; spreadMs: number; oneMs: number };
    assert.equal(answer.handedToLibuv, hashingConcurrency(2, availableParallelism()));
    assert.deepEqual(answer.results, [true, true, true, true]);
    if (availableParallelism() >= 2) {
      assert.equal(answer.handedToLibuv, 4, 'two hashing, two queued ahead');
      assert.ok(answer.spreadMs < answer.oneMs / 2, `all four answered together (${answer.spreadMs.toFixed(1)} ms apart, one hash ${answer.oneMs.toFixed(1)} ms)`);
    }
  });

  test('verifications and hashes beyond the concurrency wait in line, and all complete', async () => {
    const slots = argon2Slots();
    const limit = hashingConcurrency(libuvPoolSize(process.env.UV_THREADPOOL_SIZE), availableParallelism());
    const stored = await hashPassword('Secret#123');
    const work = [
      ...Array.from({ length: limit + 2 }, () => verifyPassword(stored, 'Secret#123')),
      verifyAgainstDummy('Secret#123'),
      hashPassword('Other#456'),
    ];
    assert.equal(slots.running, limit);
    assert.equal(slots.waiting, work.length - limit);
    const results = await Promise.all(work);
    assert.deepEqual(results.slice(0, limit + 2), Array(limit + 2).fill(true));
    assert.equal(results[limit + 2], false);
    assert.match(String(results[limit + 3]), /^\$argon2id\$/);
    assert.equal(slots.running, 0);
    assert.equal(slots.waiting, 0);
  });
});
