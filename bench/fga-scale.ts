/**
 * `npm run bench:fga-scale [-- --tuples N --checks N --stores sqlite,postgres --regenerate]`: the FGA engine
 * at 1,000,000 tuples. The organization model of fga-scale-data.ts (documents in folders, folders in
 * folders, folder viewers through groups and nested groups, org admins through `admin from org`, documents
 * shared with `org#member`) is generated once into a SQLite file (/tmp/portcullis-fga-scale.sqlite) and a
 * PostgreSQL database of its own (bench_fga_scale on 127.0.0.1:5432), in bulk multi-row inserts, and reused
 * by later runs while it holds the same model and tuple count. Then, each through a fresh engine as a request
 * gets one:
 *
 * - single checks (`--checks` each, default 1,000): direct, through a group userset, through the document's
 *   folder or its parent folder, and negative (a user of another org: the whole graph is walked); p50/p99;
 * - batches: 100 checks of one user on 100 documents of its org, concurrent on one engine as
 *   check_permissions runs them (20 batches); p50/p99;
 * - list_objects: every document an org admin can view (10,000 per org), 10 runs over different orgs.
 *
 * Targets (PostgreSQL; SQLite reported beside it): check p99 < 5 ms, batch < 20 ms, list_objects < 200 ms.
 * Figures are printed, not asserted.
 */
import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { parseModel } from '../server/modules/fga/model/index.ts';
import { createEngine } from '../server/modules/fga/engine/index.ts';
import { createSqlFgaStore, FGA_ENTITIES, FgaTuple, sortableId } from '../server/modules/fga/store/index.ts';
import { tupleToParts } from '../server/modules/fga/store/tuple-rows.ts';
import type { FgaStore, TupleKey } from '../server/modules/fga/types.ts';
import { openStorage } from '../server/storage/open-storage.ts';
import type { Storage } from '../server/storage/types.ts';
import { configFor, silentLogger } from '../test/storage/open-test-storage.ts';
import { random, SCALE_DSL, scaleDataset, type Pair, type ScaleDataset } from './fga-scale-data.ts';
import { storesArg, wholeArg } from './harness.ts';

const SQLITE_FILE = '/tmp/portcullis-fga-scale.sqlite';
const PG_DATABASE = 'bench_fga_scale';
const PG_SERVER = 'postgres://postgres@127.0.0.1:5432';

type Kind = 'sqlite' | 'postgres';

interface Options {
  tuples: number;
  checks: number;
  stores: Kind[];
  regenerate: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const stores = storesArg<Kind>(argv, ['sqlite', 'postgres'], ['sqlite', 'postgres']);
  return { tuples: wholeArg(argv, 'tuples', 1_000_000), checks: wholeArg(argv, 'checks', 1_000), stores, regenerate: argv.includes('--regenerate') };
}

async function ensurePgDatabase(): Promise<void> {
  const orm = await MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: `${PG_SERVER}/postgres`,
    entities: [],
    discovery: { warnWhenNoEntities: false },
    debug: false,
  });
  try {
    const connection = orm.em.getConnection();
    const found = await connection.execute('select 1 from pg_database where datname = ?', [PG_DATABASE]);
    if (found.length === 0) await connection.execute(`create database ${PG_DATABASE}`);
  } finally {
    await orm.close();
  }
}

async function openBenchStorage(kind: Kind): Promise<Storage> {
  if (kind === 'postgres') await ensurePgDatabase();
  const url = kind === 'postgres' ? `${PG_SERVER}/${PG_DATABASE}` : SQLITE_FILE;
  return openStorage(configFor(['--database-type', kind, '--database-url', url]), FGA_ENTITIES, silentLogger, { migrations: [] });
}

/** Fills the store unless it already holds this model and this many tuples; returns the seconds spent loading. */
async function fill(kind: Kind, storage: Storage, store: FgaStore, data: ScaleDataset, regenerate: boolean): Promise<number | undefined> {
  const current = await store.currentModel();
  const count = await store.countTuples();
  let last: TupleKey | undefined;
  for (const batch of data.batches(50_000)) last = batch.at(-1); // the generator also picks the check pairs
  // Same model, same count and the same last tuple: the data of this generator, reused.
  const same = current?.dsl === SCALE_DSL && count === data.total && last && (await store.read({ ...last }, 1)).tuples.length === 1;
  if (!regenerate && same) return undefined;
  await store.reset();
  await store.writeModel(SCALE_DSL, parseModel(SCALE_DSL));
  const started = performance.now();
  const createdAt = new Date();
  let pendingRows = 0;
  let em = storage.fork();
  await em.begin();
  for (const batch of data.batches(2_000)) {
    await em.insertMany(FgaTuple, batch.map((tuple) => ({ ...tupleToParts(tuple), id: sortableId(), createdAt })));
    pendingRows += batch.length;
    if (pendingRows >= 100_000) {
      await em.commit();
      em = storage.fork();
      await em.begin();
      pendingRows = 0;
    }
  }
  await em.commit();
  // PostgreSQL: statistics, and hint bits set once rather than by the first reads. SQLite: no ANALYZE, its
  // sqlite_stat1 table trips the schema update on the next start.
  if (kind === 'postgres') await storage.fork().getConnection().execute('vacuum (analyze) fga_tuples');
  return (performance.now() - started) / 1000;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function sample(pairs: readonly Pair[], count: number, seed: number): Pair[] {
  const next = random(seed);
  return Array.from({ length: count }, () => pairs[Math.floor(next() * pairs.length)]!);
}

function negatives(data: ScaleDataset, count: number, seed: number): Pair[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const o = Math.floor(next() * data.orgs);
    const other = (o + 1 + Math.floor(next() * (data.orgs - 1))) % data.orgs;
    const user = other * data.usersPerOrg + 3 + Math.floor(next() * (data.usersPerOrg - 3));
    return [`document:d${o * data.documentsPerOrg + Math.floor(next() * data.documentsPerOrg)}`, `user:u${user}`];
  });
}

interface Measured {
  label: string;
  p50: number;
  p99: number;
  max: number;
  note: string;
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
/** CPU time of this process (all its threads): beside the wall time, what a busy host adds by queueing. */
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const median = (values: readonly number[]) => percentile([...values].sort((a, b) => a - b), 50);

async function measureStore(kind: Kind, data: ScaleDataset, options: Options): Promise<Measured[]> {
  const storage = await openBenchStorage(kind);
  try {
    const store = createSqlFgaStore(storage);
    const loaded = await fill(kind, storage, store, data, options.regenerate);
    const model = (await store.currentModel())!.model;
    console.log(`${kind}: ${(await store.countTuples()).toLocaleString('en')} tuples, ${loaded === undefined ? 'reused' : `loaded in ${loaded.toFixed(0)} s`}`);
    const engine = () => createEngine({ model, source: store });
    const check = (pair: Pair, on = engine()) => on.check({ object: pair[0], relation: 'viewer', user: pair[1] });
    for (const pair of [...sample(data.parentFolder, 200, 1), ...negatives(data, 200, 2)]) await check(pair); // warm-up

    const results: Measured[] = [];
    const singles: Array<[string, Pair[], boolean]> = [
      ['check, direct tuple', sample(data.direct, options.checks, 3), true],
      ['check, through a group userset', sample(data.userset, options.checks, 4), true],
      ['check, through parent folders', sample(data.parentFolder, options.checks, 5), true],
      ['check, negative (other org)', negatives(data, options.checks, 6), false],
    ];
    for (const [label, pairs, expected] of singles) {
      if (pairs.some((pair) => pair === undefined)) throw new Error(`--tuples is too small to generate the pairs of '${label}'`);
      const latencies: number[] = [];
      let matching = 0;
      for (const pair of pairs) {
        const started = performance.now();
        const { allowed } = await check(pair);
        latencies.push(performance.now() - started);
        if (allowed === expected) matching++;
      }
      latencies.sort((a, b) => a - b);
      results.push({ label, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1)!, note: `${matching}/${pairs.length} answered ${expected}` });
    }

    const batches: number[] = [];
    const batchCpu: number[] = [];
    let allowedInBatches = 0;
    for (let b = 0; b < 20; b++) {
      const next = random(100 + b);
      const [seen, user] = data.parentFolder[Math.floor(next() * data.parentFolder.length)]!;
      const org = Math.floor(Number(seen.slice('document:d'.length)) / data.documentsPerOrg);
      const others = Array.from({ length: 99 }, (): Pair => [`document:d${org * data.documentsPerOrg + Math.floor(next() * data.documentsPerOrg)}`, user]);
      const shared = engine();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const answers = await Promise.all([[seen, user] as Pair, ...others].map((pair) => check(pair, shared)));
      batches.push(performance.now() - started);
      batchCpu.push(cpuMs(process.cpuUsage(cpu)));
      allowedInBatches += answers.filter((a) => a.allowed).length;
    }
    batches.sort((a, b) => a - b);
    results.push({ label: '100-check batch (one engine)', p50: percentile(batches, 50), p99: percentile(batches, 99), max: batches.at(-1)!, note: `20 batches, ${allowedInBatches} allowed, this process's CPU median ${ms(median(batchCpu))}` });

    const lists: number[] = [];
    const listCpu: number[] = [];
    let listed = 0;
    for (let run = 0; run < 10; run++) {
      const admin = data.admins[run % data.admins.length]!;
      const cpu = process.cpuUsage();
      const started = performance.now();
      const { objects } = await engine().listObjects({ user: admin, relation: 'viewer', type: 'document' });
      lists.push(performance.now() - started);
      listCpu.push(cpuMs(process.cpuUsage(cpu)));
      listed += objects.length;
    }
    lists.sort((a, b) => a - b);
    results.push({ label: 'list_objects, org admin', p50: percentile(lists, 50), p99: percentile(lists, 99), max: lists.at(-1)!, note: `10 runs, ${(listed / 10).toFixed(0)} objects each, this process's CPU median ${ms(median(listCpu))}` });

    for (const r of results) console.log(`  ${r.label}: p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)} (${r.note})`);
    console.log(`  rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
    return results;
  } finally {
    await storage.close();
  }
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const options = parseArgs(argv);
  console.log(`organization model (document -> folder -> folder -> group -> group, org admin), ${options.tuples.toLocaleString('en')} tuples`);
  const figures: Record<string, Measured[]> = {};
  for (const kind of options.stores) figures[kind] = await measureStore(kind, scaleDataset(options.tuples), options);
  const targets: Record<string, [number, string]> = {
    'check, direct tuple': [5, 'p99 < 5 ms'],
    'check, through a group userset': [5, 'p99 < 5 ms'],
    'check, through parent folders': [5, 'p99 < 5 ms'],
    'check, negative (other org)': [5, 'p99 < 5 ms'],
    '100-check batch (one engine)': [20, 'p99 < 20 ms'],
    'list_objects, org admin': [200, 'p99 < 200 ms'],
  };
  console.log('\n| Figure | ' + options.stores.map((k) => `${k} p50 / p99`).join(' | ') + ' | Target | PostgreSQL |');
  console.log('|---|' + options.stores.map(() => '---|').join('') + '---|---|');
  for (const [label, [limit, target]] of Object.entries(targets)) {
    const cells = options.stores.map((k) => {
      const r = figures[k]!.find((m) => m.label === label)!;
      return `${ms(r.p50)} / ${ms(r.p99)}`;
    });
    const pgRow = figures.postgres?.find((m) => m.label === label);
    console.log(`| ${label} | ${cells.join(' | ')} | ${target} | ${pgRow ? (pgRow.p99 < limit ? 'met' : 'missed') : 'n/a'} |`);
  }
}

if (import.meta.main) main().catch((err: Error) => {
  console.error(`bench:fga-scale failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
