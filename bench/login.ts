/**
 * `npm run bench:login [-- --seconds S --slices K --connections C --runs N --executable PATH --stores sqlite,postgres]`:
 * login throughput of the single executable on each store (SQLite and PostgreSQL by default) against the
 * machine's argon2id ceiling, both measured in the same run, and the server's own CPU per login outside
 * argon2 (the main thread, V8's threads and any other thread but libuv's pool).
 *
 * - Ours: dist/portcullis copied alone into an empty folder (test/sea/executable.ts isolatedCopy), on a fresh
 *   SQLite file or a fresh PostgreSQL database (test/support/databases.ts, dropped after the run), one user
 *   signed up, then autocannon keeps C connections (default 16) posting that user's right password to
 *   `POST /v1/login` for S seconds in all (default 10). The per-IP rate limit is off (`--rate-limit-rps 0`:
 *   every request comes from one address) and the lockout threshold is at its maximum (25), above the C
 *   logins that can hold a point at once, so neither limiter answers instead of the login.
 * - Anchor: bench/argon2-ceiling.ts in child processes of the same Node binary, verifying with the library
 *   and parameters the server uses (@node-rs/argon2, ARGON2_PARAMS) and every libuv pool thread busy for S
 *   seconds in all. One child has as many pool threads as cores (the most hashes the server runs at once,
 *   passwords/hashing-pool.ts), one has libuv's default of 4; the higher figure is the anchor, so a
 *   concurrency that only suits the server cannot flatter the ratio.
 *
 * The S seconds of each are cut into K slices (default 5) taken in turn (logins, verifications with
 * cores threads, verifications with 4 threads, logins, ...), so that a machine whose load changes during
 * the run (a shared one) weighs on ours and on the anchor alike. After each slice of logins the bench
 * waits for the server to finish the requests still in flight before the next slice starts. With --runs N
 * the whole comparison is repeated with a fresh server and the medians are reported. --executable PATH
 * measures another build than dist/portcullis. Figures are printed, never asserted.
 *
 * CPU per login: each thread's user + system time over the login slices (/proc/<pid>/task), divided by the
 * logins the server counted. libuv's pool is where argon2 runs; everything else is the server's own cost,
 * and its anchor is the pool's CPU per login in the same run (about one argon2id verify).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { freePorts, isolatedCopy, rssMiB, run, serverFlags, stop, waitFor200, type Running } from '../test/sea/executable.ts';
import type { CeilingSlice } from './argon2-ceiling.ts';
import { median, report, type Figure } from './report.ts';
import { createTestDatabase, type TestDatabase } from '../test/support/databases.ts';
import { executableArg, numberArg, postJson, storesArg } from './harness.ts';

const CREDENTIALS = { email: 'bench@example.com', password: 'B3nch!mark' };
const LIBUV_DEFAULT_POOL = 4;
const TARGET_RATIO = 0.85;
/** The server's own CPU per login outside argon2 (main thread, V8's threads, all but libuv's pool). */
const TARGET_OWN_CPU_MS = 1.5;
/** libuv's pool threads (/proc task name "libuv-worker"): argon2 and the other pool jobs. */
const POOL_THREADS = 'libuv-worker';

type Store = 'sqlite' | 'postgres';
const STORE_NAMES: Record<Store, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
/** Long enough for the requests abandoned at the end of a slice to finish (16 logins at 2 hashes at once). */
const DRAIN_MS = 1000;

interface Options {
  seconds: number;
  slices: number;
  connections: number;
  runs: number;
  executable?: string;
  stores: Store[];
}

interface RunFigures {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  rssMiB: number;
  /** Verifications per second by pool size. */
  ceilings: Map<number, number>;
  /** Server CPU milliseconds per completed login, by thread group (threadCpu), over the login slices. */
  cpuPerLogin: Map<string, number>;
}

/** USER_HZ of /proc/<pid>/stat's utime and stime on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) each thread group of a process has used, from /proc/<pid>/task/<tid>/stat:
 * 'main' is the thread whose id is the process id (the event loop, where every millisecond comes out of
 * the hashing time once the pool's threads fill the cores); the others are grouped by thread name
 * (libuv-worker: argon2 and other pool jobs; V8 workers: concurrent GC and compilation).
 */
function threadCpu(pid: number): Map<string, number> {
  const groups = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[0-9]+$/, '').trim();
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
    groups.set(name, (groups.get(name) ?? 0) + seconds);
  }
  return groups;
}

/** Successful password logins the server has counted (its own /metrics), so abandoned requests count too. */
async function loginsCounted(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const match = /^portcullis_logins_total\{outcome="success"\} (\d+)/m.exec(text);
  return match ? Number(match[1]) : 0;
}

function options(argv: readonly string[]): Options {
  return {
    seconds: numberArg(argv, 'seconds', 10),
    slices: Math.round(numberArg(argv, 'slices', 5)),
    connections: Math.round(numberArg(argv, 'connections', 16)),
    runs: Math.round(numberArg(argv, 'runs', 1)),
    executable: executableArg(argv),
    stores: storesArg<Store>(argv, ['sqlite', 'postgres'], ['sqlite', 'postgres']),
  };
}

function loginLoad(port: number, seconds: number, connections: number): autocannon.Options {
  return {
    url: `http://127.0.0.1:${port}/v1/login`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify(CREDENTIALS),
  };
}

/** A bench/argon2-ceiling.ts child with `threads` pool threads, warmed up and waiting for slices. */
async function ceilingWorker(threads: number): Promise<{ threads: number; slice(seconds: number): Promise<CeilingSlice>; close(): void }> {
  const child: ChildProcess = fork(join(import.meta.dirname, 'argon2-ceiling.ts'), [], {
    env: { ...process.env, UV_THREADPOOL_SIZE: String(threads) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolveMessage, reject) => {
      const onExit = (code: number | null) => reject(new Error(`argon2-ceiling.ts exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolveMessage(message as Record<string, unknown>);
      });
    });
  await next();
  return {
    threads,
    async slice(seconds) {
      const answer = next();
      child.send({ seconds });
      const message = await answer;
      if (typeof message.verifies !== 'number') throw new Error(`argon2-ceiling.ts: ${String(message.error ?? 'no figure')}`);
      return message as unknown as CeilingSlice;
    },
    close: () => child.kill(),
  };
}

async function measureRun(opts: Options, store: Store): Promise<RunFigures> {
  const copy = opts.executable ? isolatedCopy(opts.executable) : isolatedCopy();
  const ports = await freePorts();
  let database: TestDatabase | undefined;
  if (store === 'postgres') database = await createTestDatabase('postgres');
  // The database flags come last: they win over serverFlags' SQLite file.
  const flags = serverFlags(copy.dir, ports, ['--log-level', 'warn', '--rate-limit-rps', '0', '--login-lockout-threshold', '25', ...(database?.flags ?? [])]);
  const poolSizes = [...new Set([availableParallelism(), LIBUV_DEFAULT_POOL])];
  const workers: Awaited<ReturnType<typeof ceilingWorker>>[] = [];
  let server: Running | undefined;
  try {
    server = run(copy.executable, flags, copy.dir);
    await waitFor200(`http://127.0.0.1:${ports.http}/healthz`, server, performance.now());
    const base = `http://127.0.0.1:${ports.http}`;
    await postJson(`${base}/v1/signup`, base, { ...CREDENTIALS, confirm_password: CREDENTIALS.password });
    for (const threads of poolSizes) workers.push(await ceilingWorker(threads));
    await autocannon(loginLoad(ports.http, 1, opts.connections)); // warm-up: JIT, statements, the pool's threads
    await sleep(DRAIN_MS);
    const sliceSeconds = opts.seconds / opts.slices;
    const loads: autocannon.Result[] = [];
    const verified = new Map<number, CeilingSlice[]>(poolSizes.map((threads) => [threads, []]));
    const pid = server.child.pid!;
    const cpuSpent = new Map<string, number>();
    let loginsServed = 0;
    for (let i = 0; i < opts.slices; i++) {
      // CPU over the slice and its drain, divided by the logins the server completed in that span.
      const cpuBefore = threadCpu(pid);
      const countedBefore = await loginsCounted(ports.metrics);
      loads.push(await autocannon({ ...loginLoad(ports.http, sliceSeconds, opts.connections), skipAggregateResult: true }));
      await sleep(DRAIN_MS);
      loginsServed += (await loginsCounted(ports.metrics)) - countedBefore;
      for (const [name, seconds] of threadCpu(pid)) cpuSpent.set(name, (cpuSpent.get(name) ?? 0) + seconds - (cpuBefore.get(name) ?? 0));
      for (const worker of workers) verified.get(worker.threads)!.push(await worker.slice(sliceSeconds));
    }
    const options = loginLoad(ports.http, opts.seconds, opts.connections);
    const merged = autocannon.aggregateResult(loads, options);
    const logins = loads.reduce((sum, r) => sum + r['2xx'], 0);
    const loginSeconds = loads.reduce((sum, r) => sum + r.duration, 0);
    const ceilings = new Map<number, number>();
    for (const [threads, slices] of verified) {
      ceilings.set(threads, slices.reduce((s, x) => s + x.verifies, 0) / slices.reduce((s, x) => s + x.seconds, 0));
    }
    return {
      perSecond: logins / loginSeconds,
      p50: merged.latency.p50,
      p99: merged.latency.p99,
      errors: loads.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
      rssMiB: rssMiB(server.child.pid!),
      ceilings,
      cpuPerLogin: new Map([...cpuSpent].map(([name, seconds]) => [name, loginsServed > 0 ? (seconds * 1000) / loginsServed : 0])),
    };
  } finally {
    for (const worker of workers) worker.close();
    if (server) await stop(server);
    copy.cleanup();
    await database?.cleanup();
  }
}

/** "main 2.31 ms, libuv-worker 14.2 ms, ... (total 17.0 ms)", the groups that spent at least 0.01 ms. */
function cpuLine(perLogin: Map<string, number>): string {
  const shown = [...perLogin].filter(([, ms]) => ms >= 0.01).sort((a, b) => (a[0] === 'main' ? -1 : b[0] === 'main' ? 1 : b[1] - a[1]));
  const total = [...perLogin.values()].reduce((sum, ms) => sum + ms, 0);
  return `${shown.map(([name, ms]) => `${name} ${ms.toFixed(2)} ms`).join(', ')} (total ${total.toFixed(2)} ms)`;
}

/** CPU per login outside libuv's pool: the server's own cost, argon2 excluded. */
function ownCpu(perLogin: Map<string, number>): number {
  return [...perLogin].filter(([name]) => name !== POOL_THREADS).reduce((sum, [, ms]) => sum + ms, 0);
}

async function measureStore(opts: Options, store: Store): Promise<Figure[]> {
  const runs: RunFigures[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const figures = await measureRun(opts, store);
    runs.push(figures);
    const anchor = Math.max(...figures.ceilings.values());
    const each = [...figures.ceilings].map(([threads, perSecond]) => `${perSecond.toFixed(1)}/s with ${threads} threads`).join(', ');
    console.log(
      `${STORE_NAMES[store]} run ${i + 1}/${opts.runs}: logins ${figures.perSecond.toFixed(1)}/s (p50 ${figures.p50} ms, p99 ${figures.p99} ms, ` +
        `${figures.errors} errors, RSS ${figures.rssMiB.toFixed(0)} MiB); argon2 ceiling ${each} -> ${((figures.perSecond / anchor) * 100).toFixed(0)}%`,
    );
    console.log(`  server CPU per login: ${cpuLine(figures.cpuPerLogin)}; outside argon2 (all but ${POOL_THREADS}) ${ownCpu(figures.cpuPerLogin).toFixed(2)} ms`);
  }
  const ours = median(runs.map((r) => r.perSecond));
  const anchor = median(runs.map((r) => Math.max(...r.ceilings.values())));
  const poolSizes = [...runs[0]!.ceilings.keys()];
  const ownMs = median(runs.map((r) => ownCpu(r.cpuPerLogin)));
  const poolMs = median(runs.map((r) => r.cpuPerLogin.get(POOL_THREADS) ?? 0));
  const median2 = (name: string) => median(runs.map((r) => r.cpuPerLogin.get(name) ?? 0)).toFixed(2);
  const settings = `${opts.connections} connections, ${opts.seconds} s in ${opts.slices} slices alternating with the anchor${opts.runs > 1 ? `, median of ${opts.runs} runs` : ''}`;
  const detail = [
    `p50 ${median(runs.map((r) => r.p50))} ms, p99 ${median(runs.map((r) => r.p99))} ms`,
    `errors ${runs.reduce((sum, r) => sum + r.errors, 0)}`,
    settings,
    `server RSS ${median(runs.map((r) => r.rssMiB)).toFixed(0)} MiB`,
    `main thread ${median2('main')} ms CPU per login`,
  ].join('; ');
  return [
    {
      figure: `POST /v1/login (${STORE_NAMES[store]}), logins/s`,
      ours,
      anchorName: `argon2id verifies, all ${poolSizes.join(' or ')} pool threads busy`,
      anchor,
      unit: '/s',
      target: `>= ${TARGET_RATIO * 100}% of the argon2 ceiling`,
      met: ours >= TARGET_RATIO * anchor,
      detail,
    },
    {
      figure: `POST /v1/login (${STORE_NAMES[store]}), server CPU per login outside argon2`,
      ours: ownMs,
      anchorName: `libuv pool CPU per login, the argon2id verify`,
      anchor: poolMs,
      unit: 'ms',
      target: `<= ${TARGET_OWN_CPU_MS} ms`,
      met: ownMs <= TARGET_OWN_CPU_MS,
      detail: `main ${median2('main')} ms, V8 threads ${median2('V8Worker')} ms; ${settings}`,
    },
  ];
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  const figures: Figure[] = [];
  for (const store of opts.stores) figures.push(...(await measureStore(opts, store)));
  report('login', figures);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
