/**
 * `npm run bench:audit [-- --rows N --queries N --stores sqlite,postgres]`: the `_audit_logs` admin query
 * (docs/operations.md#audit_logs) over a large audit log. It generates N rows (default 1,000,000) spread over
 * the past year as a real tenant's log is: 20,000 users of whom a few are very active (a Zipf-like draw),
 * logins and failed logins making most of the rows, admin mutations on users, clients, webhooks and
 * organizations, and a handful of super admins and clients as actors. The rows go into a SQLite file under
 * /tmp and a PostgreSQL database `bench_audit` (created when missing) in multi-row inserts of 1,000 inside
 * transactions; a store that already holds N rows is reused, so only the first run pays for the load.
 *
 * Then each filter form, alone and combined, runs `--queries` times (default 200) through the operation's
 * own handler, with parameters drawn from the same spread, and prints p50/p99 per form. One form reads a
 * deep page (page 200 of 100 rows). Target: p99 < 100 ms for each form. Figures are printed, never asserted.
 */
import { existsSync } from 'node:fs';
import type { EntityManager } from '@mikro-orm/core';
import { auditLogsOp } from '../server/modules/audit/audit-logs.ops.ts';
import { AuditLog } from '../server/modules/audit/audit-log.entity.ts';
import { openStorage } from '../server/storage/open-storage.ts';
import type { Storage } from '../server/storage/types.ts';
import { configFor, silentLogger } from '../test/storage/open-test-storage.ts';
import { percentile } from './report.ts';
import { storesArg, wholeArg } from './harness.ts';

const SQLITE_FILE = '/tmp/portcullis-bench-audit.sqlite';
const PG_DATABASE = 'bench_audit';
const PG_URL = `postgres://postgres@127.0.0.1:5432/${PG_DATABASE}`;
const USERS = 20_000;
const YEAR_MS = 365 * 24 * 3600 * 1000;
/** The generated log ends here, so that every run and store sees the same rows and windows. */
const END = Date.UTC(2026, 0, 1);

interface Options {
  rows: number;
  queries: number;
  stores: Array<'sqlite' | 'postgres'>;
}

function parseArgs(argv: readonly string[]): Options {
  return { rows: wholeArg(argv, 'rows', 1_000_000), queries: wholeArg(argv, 'queries', 200), stores: storesArg(argv, ['sqlite', 'postgres'], ['sqlite', 'postgres']) };
}

/** A deterministic pseudo-random sequence, so every run and store sees the same data and queries. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

/** A few users do most logins: the index of a user by a Zipf-like draw (u^3 concentrates on low indexes). */
const userOf = (next: () => number) => `user-${String(Math.floor(next() ** 3 * USERS)).padStart(6, '0')}`;
const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

/** [action, share] of the rows; the admin actions name their resource type. */
const ACTIONS: ReadonlyArray<readonly [string, number, string]> = [
  ['user.login', 0.5, 'user'],
  ['user.login_failed', 0.12, 'user'],
  ['user.signup', 0.04, 'user'],
  ['user.password_changed', 0.03, 'user'],
  ['user.mfa_setup_verified', 0.03, 'user'],
  ['user.provisioned', 0.04, 'user'],
  ['user.scim_updated', 0.06, 'user'],
  ['user.deprovisioned', 0.02, 'user'],
  ['admin.update_user', 0.06, 'user'],
  ['admin.delete_user', 0.01, 'user'],
  ['admin.create_client', 0.01, 'client'],
  ['admin.update_client', 0.02, 'client'],
  ['admin.rotate_client_secret', 0.01, 'client'],
  ['admin.add_webhook', 0.005, 'webhook'],
  ['admin.update_webhook', 0.005, 'webhook'],
  ['admin.update_organization', 0.02, 'organization'],
  ['admin.add_organization_member', 0.02, 'organization'],
];
const CUMULATIVE = ACTIONS.reduce<number[]>((sums, [, share]) => [...sums, (sums.at(-1) ?? 0) + share], []);
const actionOf = (next: () => number) => {
  const draw = next() * CUMULATIVE.at(-1)!;
  return ACTIONS[CUMULATIVE.findIndex((sum) => draw < sum)] ?? ACTIONS[0]!;
};
const ADMINS = ['super-admin-1', 'super-admin-2', 'super-admin-3'];
const CLIENTS = Array.from({ length: 40 }, (_, i) => `client-${i}`);
const resourceIdOf = (next: () => number, type: string, actor: string) =>
  type === 'user' ? actor : type === 'client' ? pick(next, CLIENTS) : `${type}-${Math.floor(next() * 200)}`;

function rowAt(next: () => number, index: number, rows: number) {
  const [action, , resourceType] = actionOf(next);
  const user = userOf(next);
  const admin = action.startsWith('admin.');
  const actorType = admin ? (next() < 0.8 ? 'super_admin' : 'client') : action === 'user.login_failed' && next() < 0.3 ? 'anonymous' : 'user';
  const actorId = actorType === 'super_admin' ? pick(next, ADMINS) : actorType === 'client' ? pick(next, CLIENTS) : actorType === 'anonymous' ? '' : user;
  // Evenly over the year, oldest first, with a jitter so that rows do not tie on createdAt.
  const createdAt = new Date(END - YEAR_MS + Math.floor(((index + next()) / rows) * YEAR_MS));
  return {
    id: `${createdAt.getTime().toString(36)}-${index.toString(36).padStart(8, '0')}-0000-0000-000000000000`.slice(0, 36),
    actorId,
    actorType,
    actorEmail: actorType === 'user' ? `${actorId}@example.com` : '',
    action,
    resourceType,
    resourceId: resourceIdOf(next, resourceType, user),
    ipAddress: `198.51.100.${Math.floor(next() * 250)}`,
    userAgent: 'Mozilla/5.0 (bench)',
    metadata: action === 'user.login' ? '{"login_method":"basic_auth"}' : '{}',
    createdAt,
  };
}

async function openStore(kind: Options['stores'][number]): Promise<Storage> {
  if (kind === 'postgres') {
    const admin = await openStorage(configFor(['--database-type', 'postgres', '--database-url', 'postgres://postgres@127.0.0.1:5432/postgres']), [], silentLogger, { migrations: [] });
    try {
      const found = await admin.fork().getConnection().execute<Array<{ n: number }>>('select count(*)::int as n from pg_database where datname = ?', [PG_DATABASE]);
      if (found[0]!.n === 0) await admin.fork().getConnection().execute(`create database ${PG_DATABASE}`);
    } finally {
      await admin.close();
    }
    return openStorage(configFor(['--database-type', 'postgres', '--database-url', PG_URL]), [AuditLog], silentLogger, { migrations: [] });
  }
  if (!existsSync(SQLITE_FILE)) console.log(`sqlite: creating ${SQLITE_FILE}`);
  return openStorage(configFor(['--database-type', 'sqlite', '--database-url', SQLITE_FILE]), [AuditLog], silentLogger, { migrations: [] });
}

/** Fills the store to `rows` rows unless it already holds exactly that many (then it is reused). */
async function fill(storage: Storage, kind: string, rows: number): Promise<void> {
  const held = await storage.fork().count(AuditLog, {});
  // Production tables are vacuumed by autovacuum; a table just loaded or re-indexed is not yet, and without
  // its visibility map PostgreSQL cannot count or page from an index alone. Cheap when nothing changed.
  const settle = () => (kind === 'postgres' ? storage.fork().getConnection().execute('vacuum analyze audit_logs') : Promise.resolve());
  if (held === rows) return void (await settle());
  if (held !== 0) await storage.fork().nativeDelete(AuditLog, {});
  const started = performance.now();
  const next = random(42);
  const BATCH = 1000;
  const PER_TRANSACTION = 50_000;
  for (let first = 0; first < rows; first += PER_TRANSACTION) {
    await storage.fork().transactional(async (em: EntityManager) => {
      for (let i = first; i < Math.min(rows, first + PER_TRANSACTION); i += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, rows - i) }, (_, j) => rowAt(next, i + j, rows));
        await em.insertMany(AuditLog, batch);
      }
    });
  }
  // Not ANALYZE on SQLite: its sqlite_stat1 table makes the next start's schema update fail.
  await settle();
  console.log(`${kind}: ${rows.toLocaleString('en')} rows generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

type Input = Parameters<typeof auditLogsOp.handler>[0];
const DAY_S = 24 * 3600;
const END_S = END / 1000;

/** A time window of one to thirty days somewhere in the year. */
function windowOf(next: () => number): { from_timestamp: number; to_timestamp: number } {
  const length = Math.ceil(next() * 30) * DAY_S;
  const from = END_S - 365 * DAY_S + Math.floor(next() * (365 * DAY_S - length));
  return { from_timestamp: from, to_timestamp: from + length };
}

/** Each filter form the console and API clients send, with parameters drawn from the data's spread. */
const FORMS: ReadonlyArray<readonly [string, (next: () => number) => Input]> = [
  ['newest page, no filter', () => ({})],
  ['actor', (next) => ({ actor_id: userOf(next) })],
  ['action', (next) => ({ action: actionOf(next)[0] })],
  ['rare action', (next) => ({ action: pick(next, ['admin.add_webhook', 'admin.rotate_client_secret', 'admin.delete_user']) })],
  ['resource type', (next) => ({ resource_type: pick(next, ['user', 'client', 'webhook', 'organization']) })],
  ['resource type + id', (next) => ({ resource_type: 'user', resource_id: userOf(next) })],
  ['time window', (next) => windowOf(next)],
  ['actor + time window', (next) => ({ actor_id: userOf(next), ...windowOf(next) })],
  ['action + time window', (next) => ({ action: actionOf(next)[0], ...windowOf(next) })],
  ['actor + action', (next) => ({ actor_id: userOf(next), action: pick(next, ['user.login', 'user.login_failed', 'user.password_changed']) })],
  ['resource + action + window', (next) => ({ resource_type: 'user', resource_id: userOf(next), action: 'user.login', ...windowOf(next) })],
  ['action, page 200 of 100 rows', (next) => ({ action: pick(next, ['user.login', 'user.login_failed']), pagination: { page: 200, limit: 100 } })],
];

async function measure(storage: Storage, kind: string, queries: number): Promise<void> {
  const run = (input: Input) => auditLogsOp.handler(input, { em: storage.fork() } as unknown as Parameters<typeof auditLogsOp.handler>[1]);
  for (const [form, inputOf] of FORMS) {
    const next = random(7);
    for (let i = 0; i < 10; i++) await run(inputOf(next)); // warm-up
    const latencies: number[] = [];
    let returned = 0;
    for (let i = 0; i < queries; i++) {
      const input = inputOf(next);
      const started = performance.now();
      const page = await run(input);
      latencies.push(performance.now() - started);
      returned += page.audit_logs.length;
    }
    latencies.sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    console.log(`  ${kind.padEnd(8)} ${form.padEnd(30)} p50 ${ms(percentile(latencies, 50)).padStart(9)}  p99 ${ms(p99).padStart(9)}  ${p99 < 100 ? 'met' : 'MISSED'}  (${(returned / queries).toFixed(0)} rows/page)`);
  }
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const options = parseArgs(argv);
  console.log(`_audit_logs over ${options.rows.toLocaleString('en')} rows, ${options.queries} queries per form [target p99 < 100 ms]`);
  for (const kind of options.stores) {
    const storage = await openStore(kind);
    try {
      await fill(storage, kind, options.rows);
      await measure(storage, kind, options.queries);
    } finally {
      await storage.close();
    }
  }
  console.log(`rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
}

if (import.meta.main) main().catch((err: Error) => {
  console.error(`bench:audit failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
