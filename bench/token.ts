/**
 * `npm run bench:token [-- --seconds S --slices K --connections C --executable PATH | --source]`:
 * client_credentials tokens per second (RFC 6749 section 4.4) of our server and of `oidc-provider` configured the
 * same way, both measured in this run; target ours >= 2x oidc-provider and >= 3,000 tokens/s.
 *
 * - Ours: dist/portcullis copied alone into an empty folder (or, with --source, `node server/main.ts` from
 *   this checkout, for measuring without a build), on SQLite, signing ES256 with a fresh P-256 key,
 *   `--rate-limit-rps 0` (every request comes from one IP). One client is registered through the admin API
 *   with allowed scope `jobs:read`.
 * - Anchor: bench/oidc-provider-anchor.ts, oidc-provider 9 in a child process of the same Node binary, with
 *   the same client_id, secret and scope, the client_credentials grant, client_secret_basic, and ES256 JWT
 *   access tokens.
 * - Load: autocannon, C connections (default 16), POST /token with `grant_type=client_credentials` and
 *   `scope=jobs:read`, the client authenticated by HTTP Basic (the same bytes to both but the path).
 *
 * Before the load each side's answer is checked (200, a JWT access token that names the client). Each side
 * gets S seconds in all (default 10) in K slices (default 5) taken in turn after a 2 s warm-up each, as in
 * bench/validate.ts, and the server CPU time per token is printed beside the rate. Figures are printed
 * (bench/report.ts), never asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, isolatedCopy, run, SECRETS, serverFlags, stop, waitFor200, type Running } from '../test/sea/executable.ts';
import { report } from './report.ts';
import { alternatingSlices } from './slices.ts';
import { executableArg, numberArg, postJson } from './harness.ts';

const WARMUP_SECONDS = 2;
const SCOPE = 'jobs:read';

/** Starts a child Node script and resolves with its port once it prints `listening <port>`. */
function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, script)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Our server: the executable's isolated copy, or this checkout's sources with --source. */
function startOurs(argv: readonly string[], ports: Awaited<ReturnType<typeof freePorts>>): { server: Running; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-bench-token-'));
  const keyPath = join(dir, 'jwt-private-key.pem');
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const flags = serverFlags(dir, ports, ['--rate-limit-rps', '0', '--jwt-type', 'ES256', '--jwt-private-key', keyPath]);
  if (argv.includes('--source')) {
    const main = join(import.meta.dirname, '..', 'server', 'main.ts');
    return { server: run(process.execPath, [main, ...flags], dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const executable = executableArg(argv);
  const copy = executable ? isolatedCopy(executable) : isolatedCopy();
  return {
    server: run(copy.executable, flags, dir),
    cleanup: () => {
      copy.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One token request the way the load sends it; throws unless it answers a JWT access token for the client. */
async function checkToken(url: string, authorization: string, body: string, clientId: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization }, body });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200 || typeof answer.access_token !== 'string') throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  const [header, payload] = answer.access_token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
  if (header?.alg !== 'ES256' || payload?.client_id !== clientId) throw new Error(`${url} answered an unexpected token: ${JSON.stringify({ header, payload })}`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const seconds = numberArg(argv, 'seconds', 10);
  const connections = numberArg(argv, 'connections', 16);
  const slices = numberArg(argv, 'slices', 5);
  const ports = await freePorts();
  const base = `http://127.0.0.1:${ports.http}`;
  const ours = startOurs(argv, ports);
  let anchor: { child: ChildProcess; port: number } | undefined;
  try {
    await waitFor200(`${base}/healthz`, ours.server, performance.now(), 60_000);
    const created = await postJson(`${base}/v1/admin/create_client`, base, { name: 'bench', allowed_scopes: [SCOPE] }, {
      'x-service-admin-secret': SECRETS.adminSecret,
    });
    const clientId = (created.client as { client_id: string }).client_id;
    const secret = String(created.client_secret);
    anchor = await startChild('oidc-provider-anchor.ts', { OIDC_ANCHOR_CLIENT: JSON.stringify({ client_id: clientId, client_secret: secret, scope: SCOPE }) });

    const authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const body = new URLSearchParams({ grant_type: 'client_credentials', scope: SCOPE }).toString();
    const load = { method: 'POST' as const, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization }, body, connections };
    const ourUrl = `${base}/oauth/token`;
    const anchorUrl = `http://127.0.0.1:${anchor.port}/token`;
    await checkToken(ourUrl, authorization, body, clientId);
    await checkToken(anchorUrl, authorization, body, clientId);

    const { ours: mine, anchor: theirs } = await alternatingSlices(
      { url: ourUrl, pid: ours.server.child.pid! },
      { url: anchorUrl, pid: anchor.child.pid! },
      { load, seconds, slices, warmupSeconds: WARMUP_SECONDS },
    );
    console.log(`${connections} connections, ${seconds} s each in ${slices} alternating slices, after ${WARMUP_SECONDS} s of warm-up each`);
    for (const [name, m] of [['portcullis:   ', mine], ['oidc-provider:', theirs]] as const) {
      console.log(`${name} ${m.rps.toFixed(0)} tokens/s, p50 ${m.p50} ms, p99 ${m.p99} ms, errors ${m.errors}, server CPU ${m.cpuMicros.toFixed(0)} us/token`);
    }
    report('token', [
      {
        figure: `POST /oauth/token client_credentials, tokens/s (ES256 JWT, client_secret_basic, ${connections} connections, ${seconds} s)`,
        ours: mine.rps,
        anchorName: 'oidc-provider 9, same client and algorithm',
        anchor: theirs.rps,
        unit: 'tokens/s',
        target: '>= 200% of oidc-provider and >= 3,000/s',
        met: mine.rps >= 2 * theirs.rps && mine.rps >= 3000,
        detail: `p99 ${mine.p99} ms (oidc-provider ${theirs.p99} ms), errors ${mine.errors} (oidc-provider ${theirs.errors}), server CPU ${mine.cpuMicros.toFixed(0)} us/token (oidc-provider ${theirs.cpuMicros.toFixed(0)})`,
      },
    ]);
  } finally {
    if (anchor) await stopChild(anchor.child);
    await stop(ours.server);
    ours.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
