/**
 * `npm run bench:fga [-- --tuples N --checks N --stores sqlite,postgres]`: the FGA engine on the SQL store.
 * A depth-3 model (document -> folder via tuple-to-userset -> group via usersets), N
 * tuples (default 100,000) bulk-inserted into a fresh SQLite file and a fresh PostgreSQL database, then:
 *
 * - single checks: `--checks` (default 2,000) checks one after another, each through a fresh engine as a
 *   request gets one (so no cache carries over), half of them allowed through the deepest path; p50/p99;
 * - batches: 100 checks of one user on 100 documents run concurrently through one engine, as
 *   check_permissions does for its caller (20 batches); median and max time.
 *
 * Targets: p99 < 5 ms, batch < 20 ms. Figures are printed, not asserted: they depend on the machine.
 * PostgreSQL must be running (test/support/databases.ts says how to start it).
 */
import { parseModel } from '../server/modules/fga/model/index.ts';
import { createEngine } from '../server/modules/fga/engine/index.ts';
import { createMemoryFgaStore, createSqlFgaStore, FGA_ENTITIES, FgaTuple, sortableId } from '../server/modules/fga/store/index.ts';
import { tupleToParts } from '../server/modules/fga/store/tuple-rows.ts';
import type { FgaStore, TupleKey } from '../server/modules/fga/types.ts';
import { openStorage } from '../server/storage/open-storage.ts';
import type { Storage } from '../server/storage/types.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { configFor, silentLogger } from '../test/storage/open-test-storage.ts';
import { storesArg, wholeArg } from './harness.ts';

const DSL = `model
  schema 1.1
type user
type group
  relations
    define member: [user]
type folder
  relations
    define viewer: [user, group#member]
type document
  relations
    define parent: [folder]
    define owner: [user]
    define viewer: [user, group#member] or owner or viewer from parent
`;

interface Options {
  tuples: number;
  checks: number;
  stores: Array<'sqlite' | 'postgres' | 'memory'>;
}

function parseArgs(argv: readonly string[]): Options {
  const stores = storesArg<Options['stores'][number]>(argv, ['sqlite', 'postgres', 'memory'], ['sqlite', 'postgres']);
  return { tuples: wholeArg(argv, 'tuples', 100_000), checks: wholeArg(argv, 'checks', 2_000), stores };
}

/** A deterministic pseudo-random sequence, so every run and store sees the same data and checks. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

interface Dataset {
  tuples: TupleKey[];
  documents: number;
  users: number;
  /** [document, user] pairs allowed only through document -> folder -> group. */
  deepAllowed: Array<[string, string]>;
}

/**
 * The shares of the tuples: group members 20%, folder viewers 15% (two groups and one user per folder),
 * document parents 25%, owners 25%, direct group viewers 15%.
 */
function dataset(total: number): Dataset {
  const next = random(42);
  const pick = (n: number) => Math.floor(next() * n);
  const documents = Math.max(1, Math.floor(total * 0.25));
  const folders = Math.max(1, Math.floor((total * 0.15) / 3));
  const groups = Math.max(1, Math.floor((total * 0.2) / 10));
  const users = Math.max(10, Math.floor(total / 10));
  const tuples: TupleKey[] = [];
  const members = new Map<number, string[]>();
  for (let g = 0; g < groups; g++) {
    const list = new Set<string>();
    while (list.size < 10) list.add(`user:u${pick(users)}`);
    members.set(g, [...list]);
    for (const user of list) tuples.push({ object: `group:g${g}`, relation: 'member', user });
  }
  const folderGroups = new Map<number, number[]>();
  for (let f = 0; f < folders; f++) {
    const a = pick(groups);
    const b = (a + 1 + pick(groups - 1 || 1)) % groups;
    folderGroups.set(f, [a, b]);
    tuples.push({ object: `folder:f${f}`, relation: 'viewer', user: `group:g${a}#member` });
    if (b !== a) tuples.push({ object: `folder:f${f}`, relation: 'viewer', user: `group:g${b}#member` });
    tuples.push({ object: `folder:f${f}`, relation: 'viewer', user: `user:u${pick(users)}` });
  }
  const deepAllowed: Array<[string, string]> = [];
  for (let d = 0; d < documents; d++) {
    const folder = pick(folders);
    tuples.push({ object: `document:d${d}`, relation: 'parent', user: `folder:f${folder}` });
    tuples.push({ object: `document:d${d}`, relation: 'owner', user: `user:u${pick(users)}` });
    if (deepAllowed.length < 5000) {
      const group = folderGroups.get(folder)![0]!;
      const list = members.get(group)!;
      deepAllowed.push([`document:d${d}`, list[pick(list.length)]!]);
    }
  }
  for (let d = 0; tuples.length < total; d++) tuples.push({ object: `document:d${d % documents}`, relation: 'viewer', user: `group:g${pick(groups)}#member` });
  return { tuples: dedupe(tuples).slice(0, total), documents, users, deepAllowed };
}

function dedupe(tuples: TupleKey[]): TupleKey[] {
  const seen = new Set<string>();
  return tuples.filter((t) => {
    const key = `${t.object}#${t.relation}@${t.user}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Bulk load: multi-row inserts of 1,000 rows in one transaction (the store's writeTuples checks each tuple). */
async function bulkInsert(storage: Storage, tuples: readonly TupleKey[]): Promise<void> {
  const createdAt = new Date();
  await storage.fork().transactional(async (em) => {
    for (let i = 0; i < tuples.length; i += 1000) {
      await em.insertMany(FgaTuple, tuples.slice(i, i + 1000).map((tuple) => ({ ...tupleToParts(tuple), id: sortableId(), createdAt })));
    }
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function checksFor(data: Dataset, count: number, seed: number): Array<{ object: string; user: string }> {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => {
    if (i % 2 === 0) {
      const [object, user] = data.deepAllowed[Math.floor(next() * data.deepAllowed.length)]!;
      return { object, user };
    }
    return { object: `document:d${Math.floor(next() * data.documents)}`, user: `user:u${Math.floor(next() * data.users)}` };
  });
}

interface OpenedStore {
  store: FgaStore;
  storage?: Storage;
  loadMs: number;
  close(): Promise<void>;
}

/** A fresh store of `kind` holding the model and the tuples. */
async function openStore(kind: Options['stores'][number], data: Dataset): Promise<OpenedStore> {
  const model = parseModel(DSL);
  if (kind === 'memory') {
    const store = createMemoryFgaStore();
    await store.writeModel(DSL, model);
    const started = performance.now();
    for (let i = 0; i < data.tuples.length; i += 10_000) await store.writeTuples(data.tuples.slice(i, i + 10_000), []);
    return { store, loadMs: performance.now() - started, close: () => store.close() };
  }
  const db = await createTestDatabase(kind);
  let storage: Storage | undefined;
  try {
    storage = await openStorage(configFor(db.flags), FGA_ENTITIES, silentLogger, { migrations: [] });
    const store = createSqlFgaStore(storage);
    await store.writeModel(DSL, model);
    const started = performance.now();
    await bulkInsert(storage, data.tuples);
    const loadMs = performance.now() - started;
    if (kind === 'postgres') await storage.fork().getConnection().execute('analyze fga_tuples');
    const opened = storage;
    return { store, storage, loadMs, close: async () => { await opened.close(); await db.cleanup(); } };
  } catch (err) {
    await storage?.close();
    await db.cleanup();
    throw err;
  }
}

/** Lets an experiment run the same measurements over another source (for example a prototype store). */
export type SourceDecorator = (store: FgaStore, storage: Storage | undefined) => FgaStore;

async function benchStore(kind: Options['stores'][number], data: Dataset, options: Options, decorate?: SourceDecorator): Promise<void> {
  const { store: opened, storage, loadMs, close } = await openStore(kind, data);
  const store = decorate ? decorate(opened, storage) : opened;
  try {
    const model = (await store.currentModel())!.model;
    const stored = await store.countTuples();
    const check = (engine: ReturnType<typeof createEngine>, c: { object: string; user: string }) =>
      engine.check({ object: c.object, relation: 'viewer', user: c.user });
    for (const c of checksFor(data, 300, 7)) await check(createEngine({ model, source: store }), c); // warm-up

    const latencies: number[] = [];
    let allowed = 0;
    for (const c of checksFor(data, options.checks, 11)) {
      const started = performance.now();
      const answer = await check(createEngine({ model, source: store }), c);
      latencies.push(performance.now() - started);
      if (answer.allowed) allowed++;
    }
    latencies.sort((a, b) => a - b);

    const batches: number[] = [];
    for (let b = 0; b < 20; b++) {
      // check_permissions checks for one subject: one user, 100 documents (one it can see, the rest random).
      const next = random(100 + b);
      const [seen, user] = data.deepAllowed[Math.floor(next() * data.deepAllowed.length)]!;
      const batch = [{ object: seen, user }, ...Array.from({ length: 99 }, () => ({ object: `document:d${Math.floor(next() * data.documents)}`, user }))];
      const engine = createEngine({ model, source: store });
      const started = performance.now();
      await Promise.all(batch.map((c) => check(engine, c)));
      batches.push(performance.now() - started);
    }
    batches.sort((a, b) => a - b);

    const ms = (v: number) => `${v.toFixed(2)} ms`;
    console.log(`${kind}: ${stored.toLocaleString('en')} tuples loaded in ${(loadMs / 1000).toFixed(1)} s`);
    console.log(`  single check (${options.checks}, ${allowed} allowed): p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies.at(-1) ?? 0)}  [target p99 < 5 ms]`);
    console.log(`  100-check batch, concurrent on one engine (20 runs): median ${ms(percentile(batches, 50))}, max ${ms(batches.at(-1) ?? 0)}  [target < 20 ms]`);
  } finally {
    await close();
  }
}

export async function main(argv: readonly string[] = process.argv.slice(2), decorate?: SourceDecorator): Promise<void> {
  const options = parseArgs(argv);
  const data = dataset(options.tuples);
  console.log(`depth-3 model (document -> folder -> group), ${data.tuples.length.toLocaleString('en')} tuples, ${data.documents.toLocaleString('en')} documents`);
  for (const kind of options.stores) await benchStore(kind, data, options, decorate);
}

if (import.meta.main) main().catch((err: Error) => {
  console.error(`bench:fga failed: ${err.message}`);
  process.exit(1);
});
