/**
 * `npm run bench:sessions-year [-- --users N --days N --offline-share F --sample N --stores sqlite,postgres]`:
 * a year of daily logins by N users (default 100,000 users, 365 days), on a server whose clock is injected
 * (AppOverrides.clock) and moved through the simulated year, with the background expiry sweep
 * (server/modules/tokens/expiry-sweep.ts) running every simulated six hours as a fleet's one sweeping instance.
 *
 * Each simulated day every user signs in once, at a time spread over the day: a session (24 h) and its access
 * and ID token records (30 min) are written in bulk (multi-row inserts of 1,000 in transactions), as a login
 * writes them; a share of the logins (--offline-share, default 0.1) also asks for offline_access, whose refresh
 * record lives 30 days and keeps its session. Logins through the API would take the year itself, so the bulk
 * rows stand in for them, but each simulated month `--sample` real users (default 20) sign in through
 * `POST /v1/login`, and their tokens and cookies are validated through `POST /v1/validate_jwt_token` and
 * `POST /v1/validate_session` (10 rounds each).
 *
 * Printed each month: the rows of `sessions` and `token_records` after the sweep (bounded by the users times
 * what is alive at once, not growing with the days), the rows the month's sweeps deleted and their time, and
 * p50/p99 of both validations. The summary sets month 1 beside month 12. The databases are a SQLite file under
 * /tmp and the PostgreSQL database `bench_sweeps`, both emptied at the start: the run is the generator.
 * At the default size the run writes and deletes about 120 million rows per store (hours on two cores); scale it
 * down with --users (2,000 users take a few minutes). Figures are printed, never asserted.
 */
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { startServer, type TestServer } from '../test/support/app.ts';
import { configFor, silentLogger } from '../test/storage/open-test-storage.ts';
import { openStorage } from '../server/storage/open-storage.ts';
import { Session } from '../server/modules/sessions/index.ts';
import { TokenRecord, createExpirySweepWorker } from '../server/modules/tokens/index.ts';
import { postJson, signUpAndLogIn, storesArg, stringArg, wholeArg } from './harness.ts';
import { percentile, report, type Figure } from './report.ts';

const SQLITE_FILE = '/tmp/portcullis-bench-sessions-year.sqlite';
const PG_DATABASE = 'bench_sweeps';
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const ACCESS_MS = 30 * MINUTE_MS;
const REFRESH_MS = 30 * DAY_MS;
/** The sweep runs every six simulated hours: each day's logins are written in four slices, each followed by a sweep. */
const SLICES_PER_DAY = 4;
const DAYS_PER_MONTH = 365 / 12;
const START = Date.UTC(2026, 0, 1);
const ROUNDS = 10;
const PASSWORD = 'A long bench password 1!';

type StoreKind = 'sqlite' | 'postgres';

interface Options {
  users: number;
  days: number;
  offlineShare: number;
  sample: number;
  stores: StoreKind[];
}

function parseArgs(argv: readonly string[]): Options {
  const offlineText = stringArg(argv, 'offline-share');
  const offlineShare = offlineText === undefined ? 0.1 : Number(offlineText);
  if (!(offlineShare >= 0 && offlineShare <= 1)) throw new Error('--offline-share takes a number from 0 to 1');
  return {
    users: wholeArg(argv, 'users', 100_000),
    days: wholeArg(argv, 'days', 365),
    offlineShare,
    sample: wholeArg(argv, 'sample', 20),
    stores: storesArg(argv, ['sqlite', 'postgres'] as const, ['sqlite', 'postgres']),
  };
}

/** Flags of a fresh, empty store: the SQLite file removed, the PostgreSQL database dropped and created. */
async function freshStoreFlags(kind: StoreKind): Promise<string[]> {
  if (kind === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${SQLITE_FILE}${suffix}`, { force: true });
    return ['--database-type', 'sqlite', '--database-url', SQLITE_FILE];
  }
  const admin = await openStorage(configFor(['--database-type', 'postgres', '--database-url', PG_ADMIN_URL]), [], silentLogger, { migrations: [] });
  try {
    await admin.fork().getConnection().execute(`drop database if exists ${PG_DATABASE} with (force)`);
    await admin.fork().getConnection().execute(`create database ${PG_DATABASE}`);
  } finally {
    await admin.close();
  }
  return ['--database-type', 'postgres', '--database-url', `postgres://postgres@127.0.0.1:5432/${PG_DATABASE}`];
}

/** A deterministic pseudo-random sequence, so that every run and store writes the same rows. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

const hex64 = () => (randomUUID() + randomUUID()).replaceAll('-', '');

/** The rows one login writes (openSession, then mintTokens' records), at `at`. */
function loginRows(userId: string, at: number, offline: boolean) {
  const sessionId = hex64();
  const familyId = offline ? hex64() : null;
  const session = {
    id: sessionId, userId, roles: ['user'], scope: offline ? ['openid', 'offline_access'] : ['openid'], loginMethod: 'basic_auth',
    createdAt: new Date(at), authTime: new Date(at), expiresAt: new Date(at + DAY_MS), revokedAt: null,
  };
  const record = (kind: string, lifetime: number) => ({
    id: hex64(), kind, userId, sessionId, familyId, expiresAt: new Date(at + lifetime), revokedAt: null, rotatedAt: null,
  });
  const records = [record('access', ACCESS_MS), record('id', ACCESS_MS)];
  if (offline) records.push(record('refresh', REFRESH_MS));
  return { session, records };
}

/** Writes the logins of users [from, to) of one slice of day `day`, 1,000 rows a statement. */
async function writeLogins(em: EntityManager, options: Options, day: number, from: number, to: number, next: () => number): Promise<void> {
  const dayStart = START + day * DAY_MS;
  const sessions: ReturnType<typeof loginRows>['session'][] = [];
  const records: ReturnType<typeof loginRows>['records'] = [];
  for (let user = from; user < to; user++) {
    const at = dayStart + Math.floor((user / options.users) * DAY_MS);
    const rows = loginRows(`bulk-${user.toString(36).padStart(6, '0')}`, at, next() < options.offlineShare);
    sessions.push(rows.session);
    records.push(...rows.records);
  }
  await em.transactional(async (tx) => {
    for (let i = 0; i < sessions.length; i += 1000) await tx.insertMany(Session, sessions.slice(i, i + 1000));
    for (let i = 0; i < records.length; i += 1000) await tx.insertMany(TokenRecord, records.slice(i, i + 1000));
  });
}

interface Sample {
  validate: number[];
  session: number[];
}

/** Real logins of the sample users through the API, then their tokens and cookies validated ROUNDS times each. */
async function measureSample(server: TestServer, emails: readonly string[]): Promise<Sample> {
  const base = server.baseUrl;
  const signedIn: Array<{ token: string; cookie: string }> = [];
  for (const email of emails) {
    const send = () => fetch(`${base}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    // The month's bulk writes leave the connections idle past the server's keep-alive timeout: a pooled one the
    // server is closing just then fails once, and a new connection takes the login (timings start after).
    const response = await send().catch(send);
    const answer = (await response.json()) as { access_token?: string };
    if (response.status !== 200 || !answer.access_token) throw new Error(`login answered ${response.status}: ${JSON.stringify(answer)}`);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('cookie_session='))?.split(';')[0]?.slice('cookie_session='.length);
    if (!cookie) throw new Error('login set no cookie_session');
    signedIn.push({ token: answer.access_token, cookie });
  }
  const sample: Sample = { validate: [], session: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const { token, cookie } of signedIn) {
      let started = performance.now();
      const validated = await postJson(`${base}/v1/validate_jwt_token`, base, { token_type: 'access_token', token });
      sample.validate.push(performance.now() - started);
      if (validated.is_valid !== true) throw new Error(`validate_jwt_token answered ${JSON.stringify(validated)}`);
      started = performance.now();
      const session = await postJson(`${base}/v1/validate_session`, base, { cookie });
      sample.session.push(performance.now() - started);
      if (session.is_valid !== true) throw new Error(`validate_session answered ${JSON.stringify(session)}`);
    }
  }
  sample.validate.sort((a, b) => a - b);
  sample.session.sort((a, b) => a - b);
  return sample;
}

interface Month {
  month: number;
  sessions: number;
  records: number;
  deleted: number;
  sweepMs: number;
  sample: Sample;
}

const ms = (sorted: readonly number[], p: number) => percentile(sorted, p).toFixed(2);

async function simulate(kind: StoreKind, options: Options): Promise<Month[]> {
  let simulatedNow = START;
  const clock = { now: () => new Date(simulatedNow) };
  const server = await startServer(await freshStoreFlags(kind), { clock });
  const { storage } = server.app.deps;
  // The fleet's sweeping instance, run at each slice's end rather than on its ten-minute timer.
  const sweep = createExpirySweepWorker({ pauseMs: 0, firstRunDelayMs: 24 * 3600_000 });
  sweep.start(server.app.deps);
  const months: Month[] = [];
  try {
    const emails = Array.from({ length: options.sample }, (_, i) => `sample-${i}-${randomUUID().slice(0, 8)}@example.com`);
    for (const email of emails) await signUpAndLogIn(server.baseUrl, { email, password: PASSWORD });
    const next = random(42);
    const autovacuum = kind !== 'postgres' || (await storage.fork().getConnection().execute<Array<{ autovacuum: string }>>('show autovacuum'))[0]!.autovacuum === 'on';
    if (!autovacuum) console.log(`${kind}: autovacuum is off; vacuuming sessions and token_records once a simulated day in its place`);
    const started = performance.now();
    let deleted = 0;
    let sweepMs = 0;
    let month = 1;
    console.log(`${kind}: ${options.users.toLocaleString('en')} users, ${options.days} days, offline_access share ${options.offlineShare}`);
    console.log('  month | sessions | token_records | deleted in month | sweep s | validate_jwt_token p50/p99 ms | validate_session p50/p99 ms');
    for (let day = 0; day < options.days; day++) {
      for (let slice = 0; slice < SLICES_PER_DAY; slice++) {
        const from = Math.floor((slice / SLICES_PER_DAY) * options.users);
        const to = Math.floor(((slice + 1) / SLICES_PER_DAY) * options.users);
        await writeLogins(storage.fork(), options, day, from, to, next);
        simulatedNow = START + day * DAY_MS + ((slice + 1) / SLICES_PER_DAY) * DAY_MS;
        const sweepStarted = performance.now();
        const pruned = await sweep.runNow();
        sweepMs += performance.now() - sweepStarted;
        deleted += Object.values(pruned).reduce((sum, n) => sum + n, 0);
      }
      // Autovacuum clears what the sweeps leave behind in production; where it is off (as on the machine the
      // figures were taken on), a vacuum once a simulated day stands in for it, so the dead index entries of
      // deleted rows do not pile up in front of the sweep's index walk.
      if (kind === 'postgres' && !autovacuum) await storage.fork().getConnection().execute('vacuum sessions, token_records');
      const monthEnds = Math.floor((day + 1) / DAYS_PER_MONTH) >= month || day === options.days - 1;
      if (!monthEnds) continue;
      const sample = await measureSample(server, emails);
      const sessions = await storage.fork().count(Session, {});
      const records = await storage.fork().count(TokenRecord, {});
      months.push({ month, sessions, records, deleted, sweepMs, sample });
      console.log(`  ${String(month).padStart(5)} | ${sessions.toLocaleString('en').padStart(8)} | ${records.toLocaleString('en').padStart(13)} | ${deleted.toLocaleString('en').padStart(16)} | ${(sweepMs / 1000).toFixed(1).padStart(7)} | ${ms(sample.validate, 50)} / ${ms(sample.validate, 99)} | ${ms(sample.session, 50)} / ${ms(sample.session, 99)}`);
      deleted = 0;
      sweepMs = 0;
      month++;
    }
    console.log(`${kind}: simulated in ${((performance.now() - started) / 1000).toFixed(0)} s, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    await sweep.stop();
    await server.close();
  }
  return months;
}

function figuresOf(kind: StoreKind, options: Options, months: readonly Month[]): Figure[] {
  const first = months[0]!;
  const last = months.at(-1)!;
  // What is alive at once: every user's last session (24 h), the refresh chains of the last 30 days with
  // their sessions, the access and ID records of the last half hour, plus a sweep interval (6 h) of slack.
  const liveBound = Math.ceil(options.users * (1 + 0.25 + options.offlineShare * 30) + options.sample * 2);
  const recordBound = Math.ceil(options.users * (2 * (ACCESS_MS + DAY_MS / SLICES_PER_DAY) / DAY_MS + options.offlineShare * 30) + options.sample * 4);
  const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const latency = (name: string, pick: (sample: Sample) => number[]) => {
    const [p50First, p99First, p50Last, p99Last] = [percentile(pick(first.sample), 50), percentile(pick(first.sample), 99), percentile(pick(last.sample), 50), percentile(pick(last.sample), 99)];
    return {
      figure: `${name} (${label}), p99 at month ${last.month}, ms`,
      ours: p99Last,
      anchorName: 'month 1',
      anchor: p99First,
      unit: 'ms',
      target: 'stays as fast (p99 within 2x of month 1 or < 5 ms)',
      met: p99Last <= Math.max(2 * p99First, 5),
      detail: `p50 ${p50First.toFixed(2)} -> ${p50Last.toFixed(2)} ms; ${options.users.toLocaleString('en')} users, ${months.length} months`,
    };
  };
  return [
    {
      figure: `sessions rows after ${months.length} months (${label})`,
      ours: last.sessions,
      anchorName: 'after month 1',
      anchor: first.sessions,
      unit: 'rows',
      target: `bounded: <= ${liveBound.toLocaleString('en')} (users x live lifetime)`,
      met: last.sessions <= liveBound,
      detail: `${options.users.toLocaleString('en')} users, ${options.days} days`,
    },
    {
      figure: `token_records rows after ${months.length} months (${label})`,
      ours: last.records,
      anchorName: 'after month 1',
      anchor: first.records,
      unit: 'rows',
      target: `bounded: <= ${recordBound.toLocaleString('en')} (users x live lifetime)`,
      met: last.records <= recordBound,
      detail: `sweeps of month ${last.month}: ${last.deleted.toLocaleString('en')} rows in ${(last.sweepMs / 1000).toFixed(1)} s`,
    },
    latency('POST /v1/validate_jwt_token', (sample) => sample.validate),
    latency('POST /v1/validate_session', (sample) => sample.session),
  ];
}

const options = parseArgs(process.argv.slice(2));
const figures: Figure[] = [];
for (const kind of options.stores) {
  const months = await simulate(kind, options);
  figures.push(...figuresOf(kind, options, months));
}
report('sessions-year', figures);
