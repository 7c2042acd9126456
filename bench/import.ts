/**
 * `npm run bench:import [-- --users N --stores sqlite,postgres]`: users imported per second by `_import_users`
 * (docs/importing-users.md) through a running server's REST route with a streamed application/x-ndjson body
 * (the full pipeline: admin check, line parsing, hash checks, batches of 500 with their lookups, identity
 * claims and `user.created` events, the audit entry), on SQLite and PostgreSQL (a database of its own on
 * 127.0.0.1:5432, dropped afterwards; skipped when the server is not there).
 *
 * Scenarios, N users each (default 10,000), each on fresh addresses:
 * - without hashes (profile and roles only);
 * - with bcrypt hashes (cost 10, made by bcryptjs; 16 distinct hashes spread over the users, since the import
 *   checks a hash's shape and cost but never computes it, so the figure does not depend on which hash);
 * - the same file again: every line matched and left unchanged.
 * Anchor, in the same run and store: the same rows written by a plain multi-row INSERT into the users table
 * (MikroORM insertMany, 500 rows a transaction), no lookups, claims or events.
 * Figures are printed, not asserted; this bench is not part of bench/all.ts.
 */
import bcryptjs from 'bcryptjs';
import { randomUUID } from 'node:crypto';
import { User } from '../server/modules/users/user.entity.ts';
import { startServer, ADMIN_SECRET, type TestServer } from '../test/support/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/support/databases.ts';
import { storesArg, wholeArg } from './harness.ts';
import { report, type Figure } from './report.ts';

type Store = 'sqlite' | 'postgres';

function lines(prefix: string, total: number, hashes: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < total; i++) {
    out.push(JSON.stringify({
      email: `${prefix}-${i}@import.bench`,
      given_name: `Given${i}`,
      family_name: `Family${i % 977}`,
      email_verified: i % 2 === 0,
      external_id: `${prefix}-ext-${i}`,
      ...(hashes.length ? { password_hash: hashes[i % hashes.length] } : {}),
    }));
  }
  return `${out.join('\n')}\n`;
}

interface ImportAnswer {
  created: number;
  unchanged: number;
  failed: number;
}

async function importFile(server: TestServer, body: string): Promise<{ seconds: number; answer: ImportAnswer }> {
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}/v1/admin/import_users`, {
    method: 'POST',
    headers: { 'x-service-admin-secret': ADMIN_SECRET, origin: server.baseUrl, 'content-type': 'application/x-ndjson' },
    body,
  });
  const answer = (await res.json()) as ImportAnswer;
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 200) throw new Error(`import_users answered ${res.status}: ${JSON.stringify(answer)}`);
  return { seconds, answer };
}

/** The anchor: the same users as plain rows, 500 a multi-row INSERT in its own transaction. */
async function plainInsert(server: TestServer, prefix: string, total: number): Promise<number> {
  const now = new Date();
  const started = performance.now();
  for (let from = 0; from < total; from += 500) {
    const rows: Array<Record<string, unknown>> = [];
    for (let i = from; i < Math.min(total, from + 500); i++) {
      rows.push({
        id: randomUUID(),
        email: `${prefix}-${i}@import.bench`,
        emailVerifiedAt: i % 2 === 0 ? now : null,
        signupMethods: 'basic_auth',
        givenName: `Given${i}`,
        familyName: `Family${i % 977}`,
        roles: ['user'],
        importedId: `${prefix}-ext-${i}`,
        createdAt: now,
        updatedAt: now,
      });
    }
    await server.app.deps.storage.fork().transactional((em) => em.insertMany(User, rows as never[]));
  }
  return (performance.now() - started) / 1000;
}

async function benchStore(store: Store, total: number, bcryptHashes: readonly string[]): Promise<Figure[]> {
  let database: TestDatabase | undefined;
  if (store === 'postgres') {
    try {
      database = await createTestDatabase('postgres');
    } catch (err) {
      console.log(`postgres: skipped (${(err as Error).message.split('\n')[0]})`);
      return [];
    }
  }
  const server = await startServer(database?.flags ?? []);
  const figures: Figure[] = [];
  try {
    // Warm-up: the first batch pays for prepared statements and the JIT.
    await importFile(server, lines('warm', 500, bcryptHashes));
    await plainInsert(server, 'warm-anchor', 500);
    const anchorSeconds = await plainInsert(server, 'anchor', total);
    const anchorRate = total / anchorSeconds;
    console.log(`${store}: plain INSERT of ${total} users: ${anchorRate.toFixed(0)} users/s`);
    const scenarios: Array<[string, string, number]> = [];
    const plain = lines('plain', total, []);
    const hashed = lines('bcrypt', total, bcryptHashes);
    for (const [name, body, expectCreated] of [
      ['without hashes', plain, total],
      ['with bcrypt hashes', hashed, total],
      ['the same file again (all unchanged)', hashed, 0],
    ] as const) {
      const rss = () => process.memoryUsage().rss / 2 ** 20;
      const { seconds, answer } = await importFile(server, body);
      if (answer.created !== expectCreated || answer.failed !== 0) throw new Error(`${name}: ${JSON.stringify(answer)}`);
      const rate = total / seconds;
      scenarios.push([name, body, rate]);
      console.log(`  ${name}: ${total} lines in ${seconds.toFixed(2)} s, ${rate.toFixed(0)} users/s (${((rate / anchorRate) * 100).toFixed(0)}% of plain INSERT), bench RSS ${rss().toFixed(0)} MiB`);
      figures.push({
        figure: `${store}: import_users streamed, ${total.toLocaleString('en')} users ${name}, users/s`,
        ours: rate,
        anchorName: 'plain multi-row INSERT of the same rows (500 a transaction, users table only)',
        anchor: anchorRate,
        unit: 'users/s',
        target: '>= 25% of the plain INSERT',
        met: rate >= anchorRate * 0.25,
        detail: `${seconds.toFixed(2)} s for ${total.toLocaleString('en')} lines; each created user also writes an identity claim and a user.created event`,
      });
    }
  } finally {
    await server.close();
    await database?.cleanup();
  }
  return figures;
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const total = wholeArg(argv, 'users', 10_000);
  const stores = storesArg<Store>(argv, ['sqlite', 'postgres'], ['sqlite', 'postgres']);
  const bcryptHashes = await Promise.all(Array.from({ length: 16 }, (_, i) => bcryptjs.hash(`password-${i}`, 10)));
  const figures: Figure[] = [];
  for (const store of stores) figures.push(...(await benchStore(store, total, bcryptHashes)));
  report('import', figures);
}

if (import.meta.main) main().catch((err: Error) => {
  console.error(`bench:import failed: ${err.message}`);
  process.exit(1);
});
