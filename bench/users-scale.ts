/**
 * `npm run bench:users [-- --users N --samples N --stores sqlite,postgres]`: the admin `users` operation
 * (docs/operations.md#users) over a million users, through a running server's REST route
 * (`POST /v1/admin/users`, the full operation pipeline), on SQLite and PostgreSQL.
 *
 * Data: N users (default 1,000,000) with realistic emails and names (about a third with a phone number,
 * a fifth with a nickname), created over three years, bulk-inserted (multi-row inserts in one transaction)
 * into a SQLite file under /tmp/portcullis-bench-users and the PostgreSQL database bench_users. Both are
 * kept and reused by later runs: a store already holding N users is not filled again.
 *
 * Measured, each `--samples` times (default 200) one after another: the first page, a deep page (the
 * middle of the list), a search by an email prefix and a search by a given or family name prefix.
 * p50/p99 per figure, target p99 < 100 ms. Figures are printed, not asserted.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { User } from '../server/modules/users/user.entity.ts';
import { startServer, ADMIN_SECRET, type TestServer } from '../test/support/app.ts';
import { numberArg, stringArg } from './harness.ts';
import { percentile, report, type Figure } from './report.ts';

const SQLITE_DIR = '/tmp/portcullis-bench-users';
const PG_URL = process.env.BENCH_USERS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_users';

const GIVEN = ('olivia liam emma noah ava elijah sophia james isabella william mia benjamin charlotte lucas amelia henry harper ' +
  'alexander evelyn mason abigail michael emily ethan elizabeth daniel sofia jacob avery logan ella jackson madison levi scarlett ' +
  'sebastian victoria mateo aria jack grace owen chloe theodore camila aiden penelope samuel riley joseph layla john lillian ' +
  'david nora wyatt zoey matthew mila luke aubrey asher hannah carter lily julian addison grayson eleanor leo natalie jayden ' +
  'luna gabriel savannah isaac brooklyn lincoln leah anthony zoe hudson stella dylan hazel ezra ellie thomas paisley charles ' +
  'audrey christopher skylar jaxon violet maverick claire josiah bella isaiah aurora andrew lucy elias anna joshua samantha').split(' ');
const FAMILY = ('smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson anderson ' +
  'thomas taylor moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis robinson walker young allen king ' +
  'wright scott torres nguyen hill flores green adams nelson baker hall rivera campbell mitchell carter roberts gomez phillips evans ' +
  'turner diaz parker cruz edwards collins reyes stewart morris morales murphy cook rogers gutierrez ortiz morgan cooper peterson ' +
  'bailey reed kelly howard ramos kim cox ward richardson watson brooks chavez wood james bennett gray mendoza ruiz hughes price ' +
  'alvarez castillo sanders patel myers long ross foster jimenez powell jenkins perry russell sullivan bell coleman butler henderson').split(' ');
const DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'corp.example', 'mail.example.org', 'fastmail.com', 'proton.me', 'acme.example'];
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** A deterministic pseudo-random sequence, so every run and store sees the same data and queries. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);

interface Person {
  given: string;
  family: string;
  email: string;
}

/** The i-th generated person: the same for every store and run. */
function person(i: number): Person {
  const next = random(i * 7919 + 13);
  const given = GIVEN[Math.floor(next() * GIVEN.length)]!;
  const family = FAMILY[Math.floor(next() * FAMILY.length)]!;
  const style = Math.floor(next() * 3);
  const local = style === 0 ? `${given}.${family}${i}` : style === 1 ? `${given[0]}${family}${i}` : `${given}${i}.${family[0]}`;
  return { given, family, email: `${local}@${DOMAINS[i % DOMAINS.length]}` };
}

function userRow(i: number, total: number, start: number) {
  const { given, family, email } = person(i);
  const next = random(i + 1_000_003);
  const createdAt = new Date(start + Math.floor((i / total) * 3 * YEAR_MS));
  return {
    id: randomUUID(),
    email,
    phoneNumber: next() < 0.33 ? `+1555${String(i).padStart(7, '0')}` : null,
    signupMethods: 'basic_auth',
    givenName: capital(given),
    familyName: capital(family),
    nickname: next() < 0.2 ? `${given}${Math.floor(next() * 100)}` : null,
    roles: ['user'],
    createdAt,
    updatedAt: createdAt,
  };
}

async function countUsers(server: TestServer): Promise<number> {
  return server.app.deps.storage.fork().count(User, {});
}

/** Fills the store up to `total` users with multi-row inserts of 1,000 rows, in transactions of 50,000. */
async function fill(server: TestServer, kind: string, total: number): Promise<void> {
  const have = await countUsers(server);
  if (have >= total) return;
  if (have > 0) throw new Error(`${kind} holds ${have} users, not ${total}: delete it (or give --users ${have}) and run again`);
  const started = performance.now();
  const start = Date.UTC(2023, 0, 1);
  for (let from = 0; from < total; from += 50_000) {
    await server.app.deps.storage.fork().transactional(async (em) => {
      for (let i = from; i < Math.min(total, from + 50_000); i += 1000) {
        const rows = [];
        for (let j = i; j < Math.min(total, i + 1000); j++) rows.push(userRow(j, total, start));
        await em.insertMany(User, rows);
      }
    });
    process.stdout.write(`\r  ${kind}: ${(from + 50_000).toLocaleString('en')} users inserted`);
  }
  const analyze = kind === 'postgres' ? 'vacuum analyze users' : 'analyze';
  await server.app.deps.storage.fork().getConnection().execute(analyze);
  console.log(` in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function call(server: TestServer, body: unknown): Promise<{ users: unknown[]; pagination: { total: number } }> {
  const res = await fetch(`${server.baseUrl}/v1/admin/users`, {
    method: 'POST',
    headers: { 'x-service-admin-secret': ADMIN_SECRET, origin: server.baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { users: unknown[]; pagination: { total: number } };
  if (res.status !== 200) throw new Error(`/v1/admin/users answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

interface Scenario {
  name: string;
  body: (n: number) => unknown;
}

function scenarios(total: number): Scenario[] {
  const pick = random(99);
  const emailPrefixes = Array.from({ length: 50 }, () => {
    const email = person(Math.floor(pick() * total)).email;
    return email.slice(0, 6 + Math.floor(pick() * 6));
  });
  const namePrefixes = Array.from({ length: 50 }, () => {
    const who = person(Math.floor(pick() * total));
    const name = pick() < 0.5 ? who.given : who.family;
    return capital(name).slice(0, Math.min(name.length, 3 + Math.floor(pick() * 3)));
  });
  const middle = Math.floor(total / 20);
  return [
    { name: 'first page', body: () => ({}) },
    { name: `deep page (page ${middle.toLocaleString('en')} of 10)`, body: (n) => ({ pagination: { page: middle - (n % 10), limit: 10 } }) },
    { name: 'email-prefix search', body: (n) => ({ query: emailPrefixes[n % emailPrefixes.length] }) },
    { name: 'name-prefix search', body: (n) => ({ query: namePrefixes[n % namePrefixes.length] }) },
  ];
}

async function benchStore(kind: 'sqlite' | 'postgres', total: number, samples: number): Promise<Figure[]> {
  if (kind === 'sqlite') mkdirSync(SQLITE_DIR, { recursive: true });
  const flags = kind === 'sqlite'
    ? ['--database-type', 'sqlite', '--database-url', `${SQLITE_DIR}/users.db`]
    : ['--database-type', 'postgres', '--database-url', PG_URL];
  if (kind === 'sqlite' && !existsSync(`${SQLITE_DIR}/users.db`)) console.log(`  sqlite: creating ${SQLITE_DIR}/users.db`);
  const server = await startServer(flags);
  const figures: Figure[] = [];
  try {
    await fill(server, kind, total);
    // The search index is built by storage migration 0004 at the first start over the filled table; its
    // visibility map and statistics are what autovacuum would leave a while later.
    if (kind === 'postgres') await server.app.deps.storage.fork().getConnection().execute('vacuum analyze');
    const rows = await countUsers(server);
    console.log(`${kind}: ${rows.toLocaleString('en')} users`);
    for (const scenario of scenarios(total)) {
      for (let n = 0; n < 10; n++) await call(server, scenario.body(n)); // warm-up
      const latencies: number[] = [];
      let found = 0;
      for (let n = 0; n < samples; n++) {
        const started = performance.now();
        const answer = await call(server, scenario.body(n));
        latencies.push(performance.now() - started);
        found += answer.users.length;
      }
      latencies.sort((a, b) => a - b);
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      const rss = process.memoryUsage().rss / 2 ** 20;
      console.log(`  ${scenario.name}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms, ` +
        `${(found / samples).toFixed(1)} users a page, RSS ${rss.toFixed(0)} MiB  [target p99 < 100 ms]`);
      figures.push({
        figure: `${kind}: users ${scenario.name} over ${rows.toLocaleString('en')} users, p99 ms`,
        ours: p99,
        anchorName: 'target',
        anchor: 100,
        unit: 'ms',
        target: '< 100 ms',
        met: p99 < 100,
        detail: `p50 ${p50.toFixed(1)} ms`,
      });
    }
  } finally {
    await server.close();
  }
  return figures;
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const total = numberArg(argv, 'users', 1_000_000);
  const samples = numberArg(argv, 'samples', 200);
  const stores = (stringArg(argv, 'stores') ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
  const figures: Figure[] = [];
  for (const kind of stores) figures.push(...(await benchStore(kind, total, samples)));
  report('users', figures);
}

if (import.meta.main) main().catch((err: Error) => {
  console.error(`bench:users failed: ${err.message}`);
  process.exit(1);
});
