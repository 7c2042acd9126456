/**
 * `npm run bench:memory [-- --seconds S --settle-ms M --executable path]`: does the single executable's
 * resident memory come back after load (target: "memory after a load run returns within 20% of idle")?
 *
 * dist/portcullis, copied alone into an empty folder, on SQLite with `--rate-limit-rps 0` (every request here
 * comes from one IP). Setup: one user signs up and logs in; the super-admin writes an FGA model and tuples.
 * Anchor: the server's resident memory idle, 2 s after the setup, in this same run and process.
 * Load: S seconds (default 20) of four autocannon streams at once, the calls every application makes:
 * POST /v1/validate_jwt_token, GET /v1/profile with the bearer token, POST /v1/check_permissions (10 checks
 * a request) and POST /v1/login (argon2id, 2 connections). Ours: the resident memory M ms (default 5,000)
 * after the load ends, while idle. The peak during the load is printed beside it. Figures are printed, not
 * asserted.
 */
import autocannon from 'autocannon';
import { freePorts, isolatedCopy, rssMiB, run, serverFlags, SECRETS, stop, waitFor200 } from '../test/sea/executable.ts';
import { report } from './report.ts';
import { executableArg, numberArg, postJson, signUpAndLogIn, sleep } from './harness.ts';

const IDLE_MS = 2_000;
const WITHIN = 0.2;

const MODEL = `model
  schema 1.1
type user
type team
  relations
    define member: [user]
type doc
  relations
    define owner: [user]
    define editor: [user, team#member] or owner
    define viewer: [user, user:*] or editor
`;

/** One user with a token, and an FGA model whose checks walk a few relations. */
async function setUp(base: string): Promise<{ token: string; credentials: { email: string; password: string } }> {
  const credentials = { email: 'bench-memory@example.com', password: 'B3nch!mark-memory' };
  const { token, validated } = await signUpAndLogIn(base, credentials);
  const sub = validated.claims.sub;
  if (typeof sub !== 'string') throw new Error(`validation answered no sub: ${JSON.stringify(validated)}`);
  const admin = { 'x-service-admin-secret': SECRETS.adminSecret };
  await postJson(`${base}/v1/admin/fga/model`, base, { dsl: MODEL }, admin);
  const tuples = [
    { user: `user:${sub}`, relation: 'member', object: 'team:core' },
    ...Array.from({ length: 20 }, (_, i) => ({ user: 'team:core#member', relation: 'editor', object: `doc:${i}` })),
  ];
  await postJson(`${base}/v1/admin/fga/tuples`, base, { tuples }, admin);
  return { token, credentials };
}

/** Samples the process's RSS every 250 ms until stopped; resolves with the highest. */
function peakSampler(pid: number): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const seconds = numberArg(argv, 'seconds', 20);
  const settleMs = numberArg(argv, 'settle-ms', 5_000);
  const copy = isolatedCopy(executableArg(argv));
  const ports = await freePorts();
  const base = `http://127.0.0.1:${ports.http}`;
  const server = run(copy.executable, serverFlags(copy.dir, ports, ['--rate-limit-rps', '0', '--log-level', 'warn']), copy.dir);
  try {
    await waitFor200(`${base}/readyz`, server, performance.now());
    const pid = server.child.pid!;
    const { token, credentials } = await setUp(base);
    await sleep(IDLE_MS);
    const idle = rssMiB(pid);

    const json = { 'content-type': 'application/json', origin: base };
    const bearer = { ...json, authorization: `Bearer ${token}` };
    const checks = Array.from({ length: 10 }, (_, i) => ({ relation: 'viewer', object: `doc:${i * 2}` }));
    const streams: Record<string, autocannon.Options> = {
      validate: { url: `${base}/v1/validate_jwt_token`, method: 'POST', headers: json, body: JSON.stringify({ token_type: 'access_token', token }), connections: 6, duration: seconds },
      profile: { url: `${base}/v1/profile`, method: 'GET', headers: bearer, connections: 4, duration: seconds },
      check: { url: `${base}/v1/check_permissions`, method: 'POST', headers: bearer, body: JSON.stringify({ checks }), connections: 4, duration: seconds },
      login: { url: `${base}/v1/login`, method: 'POST', headers: json, body: JSON.stringify(credentials), connections: 2, duration: seconds },
    };
    const sampler = peakSampler(pid);
    const results = await Promise.all(Object.entries(streams).map(async ([name, options]) => [name, await autocannon(options)] as const));
    const peak = sampler.stop();
    await sleep(settleMs);
    const after = rssMiB(pid);

    const lines = results.map(([name, r]) => `${name} ${(r['2xx'] / r.duration).toFixed(0)}/s (${r.non2xx + r.errors + r.timeouts} errors)`);
    console.log(`${copy.source}: ${seconds} s of mixed load: ${lines.join(', ')}`);
    console.log(`RSS idle ${idle.toFixed(1)} MiB, peak during load ${peak.toFixed(1)} MiB, ${(settleMs / 1000).toFixed(0)} s after ${after.toFixed(1)} MiB`);
    const errors = results.reduce((sum, [, r]) => sum + r.non2xx + r.errors + r.timeouts, 0);
    report('memory', [
      {
        figure: `dist/portcullis resident memory ${(settleMs / 1000).toFixed(0)} s after ${seconds} s of mixed load (validate, profile, FGA check, login)`,
        ours: after,
        anchorName: 'the same process idle before the load',
        anchor: idle,
        unit: 'MiB',
        target: `within ${WITHIN * 100}% of idle`,
        met: after <= idle * (1 + WITHIN),
        detail: `peak ${peak.toFixed(0)} MiB during the load; ${lines.join(', ')}; errors ${errors}`,
      },
    ]);
  } finally {
    await stop(server);
    copy.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
