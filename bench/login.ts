/**
 * `npm run bench:login [-- --seconds S --connections C --runs N]`: login throughput of the single executable
 * on SQLite against the machine's argon2id ceiling, both measured in the same run.
 *
 * - Ours: dist/portcullis copied alone into an empty folder (test/sea/executable.ts isolatedCopy), one user
 *   signed up, then autocannon keeps C connections (default 16) posting that user's right password to
 *   `POST /v1/login` for S seconds (default 10). The per-IP rate limit is off (`--rate-limit-rps 0`: every
 *   request comes from one address) and the lockout threshold is at its maximum (25), above the C logins
 *   that can hold a point at once, so neither limiter answers instead of the login.
 * - Anchor: bench/argon2-ceiling.ts in a child process of the same Node binary, verifying with the library
 *   and parameters the server uses (@node-rs/argon2, ARGON2_PARAMS) and every libuv pool thread busy for
 *   S seconds. It runs with as many pool threads as cores (the most hashes the server runs at once,
 *   passwords/hashing-pool.ts) and with libuv's default of 4, and the higher figure is the anchor, so a
 *   concurrency that only suits the server cannot flatter the ratio.
 *
 * With --runs N the pair is measured N times in turn and the medians are reported (the machine may be
 * shared). --executable PATH measures another build than dist/portcullis (a before/after comparison in one
 * session). Figures are printed, never asserted.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { freePorts, isolatedCopy, rssMiB, run, serverFlags, stop, waitFor200, type Running } from '../test/sea/executable.ts';
import { median, numberArg, report } from './report.ts';

const CREDENTIALS = { email: 'bench@example.com', password: 'B3nch!mark' };
const LIBUV_DEFAULT_POOL = 4;
const TARGET_RATIO = 0.85;

interface ServerRun {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  rssMiB: number;
}

interface CeilingRun {
  threads: number;
  perSecond: number;
}

async function post(port: number, path: string, body: unknown): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

function load(port: number, seconds: number, connections: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}/v1/login`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify(CREDENTIALS),
  });
}

async function measureServer(executable: string | undefined, seconds: number, connections: number): Promise<ServerRun> {
  const copy = executable ? isolatedCopy(resolve(executable)) : isolatedCopy();
  const ports = await freePorts();
  const flags = serverFlags(copy.dir, ports, ['--log-level', 'warn', '--rate-limit-rps', '0', '--login-lockout-threshold', '25']);
  let running: Running | undefined;
  try {
    running = run(copy.executable, flags, copy.dir);
    await waitFor200(`http://127.0.0.1:${ports.http}/healthz`, running, performance.now());
    const created = await post(ports.http, '/v1/signup', { ...CREDENTIALS, confirm_password: CREDENTIALS.password });
    if (created !== 200) throw new Error(`signup answered ${created}`);
    await load(ports.http, 1, connections); // warm-up: JIT, statement caches, the pool's threads
    const result = await load(ports.http, seconds, connections);
    return {
      perSecond: result['2xx'] / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      rssMiB: rssMiB(running.child.pid!),
    };
  } finally {
    if (running) await stop(running);
    copy.cleanup();
  }
}

function measureCeiling(seconds: number, threads: number): CeilingRun {
  const output = execFileSync(process.execPath, [join(import.meta.dirname, 'argon2-ceiling.ts'), '--seconds', String(seconds)], {
    env: { ...process.env, UV_THREADPOOL_SIZE: String(threads) },
    encoding: 'utf8',
  });
  const line = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { perSecond?: number };
  if (typeof line.perSecond !== 'number') throw new Error(`argon2-ceiling.ts printed no figure: ${output}`);
  return { threads, perSecond: line.perSecond };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const seconds = numberArg(argv, 'seconds', 10);
  const connections = numberArg(argv, 'connections', 16);
  const runs = numberArg(argv, 'runs', 1);
  const executableIndex = argv.indexOf('--executable');
  const executable = executableIndex >= 0 ? argv[executableIndex + 1] : undefined;
  if (executableIndex >= 0 && !executable) throw new Error('--executable takes a path');
  const poolSizes = [...new Set([availableParallelism(), LIBUV_DEFAULT_POOL])];
  const ours: ServerRun[] = [];
  const anchors: number[] = [];
  for (let i = 0; i < runs; i++) {
    const ceilings = poolSizes.map((threads) => measureCeiling(seconds, threads));
    const server = await measureServer(executable, seconds, connections);
    const best = Math.max(...ceilings.map((c) => c.perSecond));
    ours.push(server);
    anchors.push(best);
    const each = ceilings.map((c) => `${c.perSecond.toFixed(1)}/s with ${c.threads} threads`).join(', ');
    console.log(
      `run ${i + 1}/${runs}: logins ${server.perSecond.toFixed(1)}/s (p50 ${server.p50} ms, p99 ${server.p99} ms, ` +
        `${server.errors} errors, RSS ${server.rssMiB.toFixed(0)} MiB); argon2 ceiling ${each} -> ${((server.perSecond / best) * 100).toFixed(0)}%`,
    );
  }
  const oursMedian = median(ours.map((r) => r.perSecond));
  const anchorMedian = median(anchors);
  const detail = [
    `p50 ${median(ours.map((r) => r.p50))} ms, p99 ${median(ours.map((r) => r.p99))} ms`,
    `errors ${ours.reduce((sum, r) => sum + r.errors, 0)}`,
    `${connections} connections, ${seconds} s${runs > 1 ? `, median of ${runs} runs` : ''}`,
    `server RSS ${median(ours.map((r) => r.rssMiB)).toFixed(0)} MiB`,
  ].join('; ');
  report('login', [
    {
      figure: 'POST /v1/login (SQLite), logins/s',
      ours: oursMedian,
      anchorName: `argon2id verifies, all ${poolSizes.join(' or ')} pool threads busy`,
      anchor: anchorMedian,
      unit: '/s',
      target: '>= 85% of the argon2 ceiling',
      met: oursMedian >= TARGET_RATIO * anchorMedian,
      detail,
    },
  ]);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
