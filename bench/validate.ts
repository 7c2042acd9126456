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
import { join } from 'node:path';
import { freePorts, isolatedCopy, run, serverFlags, stop, waitFor200 } from '../test/sea/executable.ts';
import { report } from './report.ts';
import { alternatingSlices } from './slices.ts';
import { executableArg, numberArg, postJson, signUpAndLogIn } from './harness.ts';

const PATH = '/v1/validate_jwt_token';
const WARMUP_SECONDS = 2;

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
    const { ours, anchor: bare } = await alternatingSlices(
      { url: ourUrl, pid: server.child.pid! },
      { url: anchorUrl, pid: anchor.child.pid! },
      { load, seconds, slices, warmupSeconds: WARMUP_SECONDS },
    );

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
