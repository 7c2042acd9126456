/**
 * `npm run bench:validate [-- --seconds S --slices K --connections C --executable PATH]`: token validation
 * throughput of the single executable against a bare Fastify route answering the same JSON, both measured
 * in this run (target: ours >= 50% of bare Fastify). --executable measures another build than
 * dist/portcullis.
 *
 * - Ours: dist/portcullis copied alone into an empty folder, on SQLite, default flags except
 *   `--rate-limit-rps 0` (the per-IP limit would measure the limiter: every request here comes from one
 *   IP). One user signs up and logs in; autocannon keeps C connections (default 16) busy on
 *   POST /v1/validate_jwt_token with that access token (a browser-like Origin, as the CSRF rule asks).
 * - Anchor: bench/bare-fastify.ts, the same fastify package in a child process of the same Node binary,
 *   answering POST with `{is_valid: true, claims}` (the claims our server answered) under the same load.
 *
 * Each gets S seconds in all (default 10), cut into K slices (default 5) taken in turn (ours, bare,
 * bare, ours, ...), after a 2 s warm-up each, so that a shared machine whose load changes during the run
 * weighs on both alike. Beside requests/s the bench prints each server's CPU time per answered request
 * (/proc), which the neighbours' load disturbs much less. Figures are printed (bench/report.ts), never
 * asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePorts, isolatedCopy, run, serverFlags, stop, waitFor200 } from '../test/sea/executable.ts';
import { report } from './report.ts';
import { executableArg, numberArg, postJson, signUpAndLogIn } from './harness.ts';

const PATH = '/v1/validate_jwt_token';
const WARMUP_SECONDS = 2;

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server process's CPU time (user + system) per answered request, in microseconds. */
  cpuMicros: number;
}

/**
 * CPU seconds a process has used (utime + stime of /proc/<pid>/stat, in USER_HZ = 1/100 s ticks on
 * Linux). Less sensitive than requests/s to what else the machine runs: it is the work one request costs.
 */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** C connections on one URL for `seconds`, with the server's CPU time over the same span. */
async function slice(url: string, load: Omit<autocannon.Options, 'url'>, seconds: number, pid: number): Promise<{ result: autocannon.Result; cpu: number }> {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ ...load, url, duration: seconds, skipAggregateResult: true });
  return { result, cpu: cpuSeconds(pid) - cpuBefore };
}

function summary(slices: Array<{ result: autocannon.Result; cpu: number }>, url: string, load: Omit<autocannon.Options, 'url'>): Measured {
  const answered = slices.reduce((sum, s) => sum + s.result['2xx'], 0);
  const seconds = slices.reduce((sum, s) => sum + s.result.duration, 0);
  const cpu = slices.reduce((sum, s) => sum + s.cpu, 0);
  const merged = autocannon.aggregateResult(slices.map((s) => s.result), { ...load, url });
  return {
    rps: answered / seconds,
    p50: merged.latency.p50,
    p99: merged.latency.p99,
    errors: slices.reduce((sum, s) => sum + s.result.non2xx + s.result.errors + s.result.timeouts, 0),
    cpuMicros: answered > 0 ? (cpu * 1e6) / answered : 0,
  };
}

/** Starts bench/bare-fastify.ts and resolves with its port once it listens. */
function startAnchor(claims: unknown): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'bare-fastify.ts'), PATH], {
    env: { ...process.env, BARE_FASTIFY_CLAIMS: JSON.stringify(claims) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`bare Fastify exited with ${code} before listening`)));
  });
}

async function stopAnchor(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const seconds = numberArg(argv, 'seconds', 10);
  const connections = numberArg(argv, 'connections', 16);
  const slices = numberArg(argv, 'slices', 5);
  const executable = executableArg(argv);
  const copy = executable ? isolatedCopy(executable) : isolatedCopy();
  const ports = await freePorts();
  const base = `http://127.0.0.1:${ports.http}`;
  const server = run(copy.executable, serverFlags(copy.dir, ports, ['--rate-limit-rps', '0']), copy.dir);
  let anchor: { child: ChildProcess; port: number } | undefined;
  try {
    await waitFor200(`${base}/healthz`, server, performance.now());
    const { token, validated } = await signUpAndLogIn(base, { email: 'bench@example.com', password: 'B3nch!mark-validate' });
    const body = JSON.stringify({ token_type: 'access_token', token });

    anchor = await startAnchor(validated.claims);
    const anchorUrl = `http://127.0.0.1:${anchor.port}${PATH}`;
    const sameAnswer = await postJson(anchorUrl, base, JSON.parse(body));
    if (JSON.stringify(sameAnswer) !== JSON.stringify(validated)) throw new Error('the anchor does not answer the same JSON');

    const load = { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body, connections };
    const ourUrl = `${base}${PATH}`;
    const ourPid = server.child.pid!;
    const anchorPid = anchor.child.pid!;
    await slice(ourUrl, load, WARMUP_SECONDS, ourPid);
    await slice(anchorUrl, load, WARMUP_SECONDS, anchorPid);
    const oursSlices: Array<{ result: autocannon.Result; cpu: number }> = [];
    const bareSlices: Array<{ result: autocannon.Result; cpu: number }> = [];
    for (let i = 0; i < slices; i++) {
      // ours, bare, bare, ours, ...: neither side is always the one measured first
      const turn = [
        async () => oursSlices.push(await slice(ourUrl, load, seconds / slices, ourPid)),
        async () => bareSlices.push(await slice(anchorUrl, load, seconds / slices, anchorPid)),
      ];
      if (i % 2 === 1) turn.reverse();
      for (const take of turn) await take();
    }
    const ours = summary(oursSlices, ourUrl, load);
    const bare = summary(bareSlices, anchorUrl, load);

    console.log(`${connections} connections, ${seconds} s each in ${slices} alternating slices, after ${WARMUP_SECONDS} s of warm-up each`);
    for (const [name, m] of [['portcullis:  ', ours], ['bare Fastify:', bare]] as const) {
      console.log(`${name} ${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, errors ${m.errors}, server CPU ${m.cpuMicros.toFixed(0)} us/request`);
    }
    report('validate', [
      {
        figure: `POST ${PATH}, requests/s (${connections} connections, ${seconds} s)`,
        ours: ours.rps,
        anchorName: 'bare Fastify route, same JSON',
        anchor: bare.rps,
        unit: 'req/s',
        target: '>= 50% of bare Fastify',
        met: ours.rps >= 0.5 * bare.rps,
        detail: `p99 ${ours.p99} ms (bare ${bare.p99} ms), errors ${ours.errors} (bare ${bare.errors}), server CPU ${ours.cpuMicros.toFixed(0)} us/request (bare ${bare.cpuMicros.toFixed(0)})`,
      },
    ]);
  } finally {
    if (anchor) await stopAnchor(anchor.child);
    await stop(server);
    copy.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
