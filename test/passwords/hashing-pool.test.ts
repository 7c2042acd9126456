/**
 * How many argon2 computations run at once (passwords/hashing-pool.ts): one per core, queued in order beyond
 * that, on a libuv pool with a thread to spare, sized at process entry unless UV_THREADPOOL_SIZE is set.
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
  test('the preferred pool has one thread per core plus one, never fewer than libuv default of 4', () => {
    assert.equal(preferredPoolSize(1), LIBUV_DEFAULT_POOL_SIZE);
    assert.equal(preferredPoolSize(2), 4);
    assert.equal(preferredPoolSize(4), 5);
    assert.equal(preferredPoolSize(16), 17);
    assert.equal(preferredPoolSize(0), 4, 'a machine reporting no cores still gets a pool');
    assert.equal(preferredPoolSize(5000), 1024, 'libuv caps its pool at 1024');
  });

  test('hashes at once: one per core, with a pool thread left for other work', () => {
    assert.equal(hashingConcurrency(4, 2), 2, '2 cores, default pool: 2 hashes, 2 threads free');
    assert.equal(hashingConcurrency(4, 8), 3, 'a pool of 4 on 8 cores: 3 hashes, 1 thread free');
    assert.equal(hashingConcurrency(17, 16), 16);
    assert.equal(hashingConcurrency(1, 4), 1, 'a pool of one still hashes');
    assert.equal(hashingConcurrency(2, 1), 1);
  });

  test('UV_THREADPOOL_SIZE is read as libuv reads it', () => {
    assert.equal(libuvPoolSize(undefined), 4);
    assert.equal(libuvPoolSize('6'), 6);
    assert.equal(libuvPoolSize('0'), 1);
    assert.equal(libuvPoolSize('many'), 1);
    assert.equal(libuvPoolSize('5000'), 1024);
  });

  test('sizeThreadPool sets the variable when unset and keeps an operator value', () => {
    const unset: NodeJS.ProcessEnv = {};
    assert.equal(sizeThreadPool(unset, 8), 9);
    assert.equal(unset.UV_THREADPOOL_SIZE, '9');
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

  test('server/main.ts imports the sizing module before anything else', async () => {
    const { readFileSync } = await import('node:fs');
    const main = readFileSync(join(ROOT, 'server', 'main.ts'), 'utf8');
    const firstImport = /^import\s+[^;]*;/m.exec(main)?.[0];
    assert.equal(firstImport, "import './modules/passwords/size-thread-pool.ts';");
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
