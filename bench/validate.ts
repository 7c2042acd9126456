/**
 * `npm run bench:validate [-- --seconds S --connections C --executable PATH]`: token validation throughput
 * of the single executable against a bare Fastify route answering the same JSON, both measured in this run
 * (issue target: ours >= 50% of bare Fastify). --executable measures another build than dist/portcullis.
 *
 * Ours: dist/portcullis copied alone into an empty folder, on SQLite, default flags except
 * `--rate-limit-rps 0` (the per-IP limit would measure the limiter: every request here comes from one IP).
 * One user signs up and logs in; autocannon then keeps C connections busy for S seconds on
 * POST /v1/validate_jwt_token with that access token (a browser-like Origin, as the CSRF rule asks).
 * Anchor: bench/bare-fastify.ts, the same fastify package in a child process of the same Node binary,
 * answering POST with `{is_valid: true, claims}` (the claims our server answered), measured right after ours
 * with the same load. Both get a short warm-up first so that neither pays for its JIT in the figure.
 * Figures are printed (bench/report.ts), never asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { freePorts, isolatedCopy, run, serverFlags, stop, waitFor200 } from '../test/sea/executable.ts';
import { numberArg, report } from './report.ts';

const PATH = '/v1/validate_jwt_token';
const WARMUP_SECONDS = 2;

/** The part of autocannon's result this bench reads (autocannon ships no types). */
interface LoadResult {
  duration: number;
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number };
}

interface LoadOptions {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
}

const autocannon = createRequire(import.meta.url)('autocannon') as (options: LoadOptions) => Promise<LoadResult>;

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(options: LoadOptions): Promise<Measured> {
  const result = await autocannon(options);
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

async function postJson(url: string, origin: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
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
  const executableIndex = argv.indexOf('--executable');
  const executable = executableIndex >= 0 ? argv[executableIndex + 1] : undefined;
  if (executableIndex >= 0 && !executable) throw new Error('--executable takes a path');
  const copy = executable ? isolatedCopy(resolve(executable)) : isolatedCopy();
  const ports = await freePorts();
  const base = `http://127.0.0.1:${ports.http}`;
  const server = run(copy.executable, serverFlags(copy.dir, ports, ['--rate-limit-rps', '0']), copy.dir);
  let anchor: { child: ChildProcess; port: number } | undefined;
  try {
    await waitFor200(`${base}/healthz`, server, performance.now());
    const credentials = { email: 'bench@example.com', password: 'B3nch!mark-validate' };
    await postJson(`${base}/v1/signup`, base, { ...credentials, confirm_password: credentials.password });
    const login = await postJson(`${base}/v1/login`, base, credentials);
    const token = login.access_token;
    if (typeof token !== 'string') throw new Error('login answered no access_token');
    const body = JSON.stringify({ token_type: 'access_token', token });
    const validated = await postJson(`${base}${PATH}`, base, JSON.parse(body));
    if (validated.is_valid !== true) throw new Error(`validation answered ${JSON.stringify(validated)}`);

    anchor = await startAnchor(validated.claims);
    const anchorUrl = `http://127.0.0.1:${anchor.port}${PATH}`;
    const sameAnswer = await postJson(anchorUrl, base, JSON.parse(body));
    if (JSON.stringify(sameAnswer) !== JSON.stringify(validated)) throw new Error('the anchor does not answer the same JSON');

    const headers = { 'content-type': 'application/json', origin: base };
    const options = (url: string, duration: number): LoadOptions => ({ url, method: 'POST', headers, body, connections, duration });
    await load(options(`${base}${PATH}`, WARMUP_SECONDS));
    await load(options(anchorUrl, WARMUP_SECONDS));
    const ours = await load(options(`${base}${PATH}`, seconds));
    const bare = await load(options(anchorUrl, seconds));

    console.log(`${connections} connections, ${seconds} s each, after ${WARMUP_SECONDS} s of warm-up each`);
    console.log(`portcullis:   ${ours.rps.toFixed(0)} req/s, p50 ${ours.p50} ms, p99 ${ours.p99} ms, errors ${ours.errors}`);
    console.log(`bare Fastify: ${bare.rps.toFixed(0)} req/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms, errors ${bare.errors}`);
    report('validate', [
      {
        figure: `POST ${PATH}, requests/s (${connections} connections, ${seconds} s)`,
        ours: ours.rps,
        anchorName: 'bare Fastify route, same JSON',
        anchor: bare.rps,
        unit: 'req/s',
        target: '>= 50% of bare Fastify',
        met: ours.rps >= 0.5 * bare.rps,
        detail: `p99 ${ours.p99} ms (bare ${bare.p99} ms), errors ${ours.errors} (bare ${bare.errors})`,
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
