/**
 * The FgaStore contract (server/modules/fga/types.ts; docs/operations.md), run by store.test.ts on every
 * store: the memory store, the main SQLite, PostgreSQL and MariaDB databases, and a separate --fga-store
 * database. Each test starts from reset().
 */
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import { fgaCodeOf, parseModel } from '../../server/modules/fga/model/index.ts';
import type { FgaStore, TupleKey } from '../../server/modules/fga/types.ts';

const MODEL_V1 = 'model\n  schema 1.1\ntype user\ntype document\n  relations\n    define viewer: [user]\n';
const MODEL_V2 = `${MODEL_V1}    define editor: [user]\n`;

export const t = (user: string, relation: string, object: string): TupleKey => ({ user, relation, object });

export async function rejectsWith(promise: Promise<unknown>, code: number, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    assert.equal(err.kind, 'invalid_argument');
    assert.equal(fgaCodeOf(err), code, err.message);
    assert.match(err.message, pattern);
    return true;
  });
}

async function readAll(store: FgaStore, filter = {}): Promise<TupleKey[]> {
  const out: TupleKey[] = [];
  let token: string | undefined;
  do {
    const page = await store.read(filter, 100, token);
    out.push(...page.tuples);
    token = page.continuation_token;
  } while (token);
  return out;
}

const sortTuples = (tuples: TupleKey[]) => [...tuples].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Registers the contract tests inside the caller's describe(); `store()` is ready before the first test. */
export function storeContract(store: () => FgaStore, expectedKind: FgaStore['kind']): void {
  beforeEach(async () => {
    await store().reset();
  });

  test('kind, and an empty store: no model, no tuples', async () => {
    assert.equal(store().kind, expectedKind);
    assert.equal(await store().currentModel(), undefined);
    assert.equal(await store().countTuples(), 0);
    assert.deepEqual(await store().read({}, 0), { tuples: [] });
  });

  test('models are versioned and append-only; the newest is current', async () => {
    const first = await store().writeModel(MODEL_V1, parseModel(MODEL_V1));
    const second = await store().writeModel(MODEL_V2, parseModel(MODEL_V2));
    assert.match(first.id, /^[0-9A-Z]{26}$/);
    assert.ok(second.id > first.id, 'ids sort by creation');
    const current = await store().currentModel();
    assert.equal(current?.id, second.id);
    assert.equal(current?.dsl, MODEL_V2);
    assert.deepEqual(current?.model, parseModel(MODEL_V2));
    assert.ok(current?.createdAt instanceof Date);
  });

  test('written tuples are read back, counted, and found by both engine read paths', async () => {
    await store().writeTuples(
      [
        t('user:anne', 'viewer', 'document:1'),
        t('user:*', 'viewer', 'document:1'),
        t('group:eng#member', 'viewer', 'document:1'),
        t('user:anne', 'editor', 'document:1'),
        t('user:anne', 'viewer', 'document:2'),
        t('user:bob', 'viewer', 'folder:1'),
      ],
      [],
    );
    assert.equal(await store().countTuples(), 6);
    assert.deepEqual(sortTuples(await store().readObjectRelation('document:1', 'viewer')), sortTuples([
      t('user:anne', 'viewer', 'document:1'),
      t('user:*', 'viewer', 'document:1'),
      t('group:eng#member', 'viewer', 'document:1'),
    ]));
    assert.deepEqual(await store().readObjectRelation('document:3', 'viewer'), []);
    assert.deepEqual(await store().readObjectRelation('not-an-object', 'viewer'), []);
    assert.deepEqual(sortTuples(await store().readByUsers('document', 'viewer', ['user:anne', 'user:*', 'group:eng#member', 'user:carl', 'bad'])), sortTuples([
      t('user:anne', 'viewer', 'document:1'),
      t('user:*', 'viewer', 'document:1'),
      t('group:eng#member', 'viewer', 'document:1'),
      t('user:anne', 'viewer', 'document:2'),
    ]));
    assert.deepEqual(await store().readByUsers('document', 'viewer', ['group:eng']), [], 'a userset matches only with its relation');
    assert.deepEqual(await store().readByUsers('document', 'viewer', []), []);
    assert.deepEqual(await store().readByUsers('folder', 'viewer', ['user:bob']), [t('user:bob', 'viewer', 'folder:1')]);
  });

  test('batch reads: many objects of one relation, many users of one type (short and long lists)', async () => {
    const tuples = Array.from({ length: 90 }, (_, i) => t(`user:u${i % 30}`, 'viewer', `document:d${i}`));
    await store().writeTuples([...tuples, t('user:u1', 'editor', 'document:d1'), t('group:g#member', 'viewer', 'document:d2')], []);
    const objects = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`);
    assert.deepEqual(await store().readObjectRelations!('document', 'viewer', []), []);
    assert.deepEqual(await store().readObjectRelations!('document', 'viewer', ['d5']), [tuples[5]]);
    assert.deepEqual(sortTuples(await store().readObjectRelations!('document', 'viewer', [...objects(10), 'd3', 'missing'])), sortTuples([...tuples.slice(0, 10), t('group:g#member', 'viewer', 'document:d2')]));
    assert.deepEqual(sortTuples(await store().readObjectRelations!('document', 'viewer', objects(90))), sortTuples([...tuples, t('group:g#member', 'viewer', 'document:d2')]));
    const users = (n: number) => Array.from({ length: n }, (_, i) => `user:u${i}`);
    assert.deepEqual(sortTuples(await store().readByUsers('document', 'viewer', users(3))), sortTuples(tuples.filter((x) => ['user:u0', 'user:u1', 'user:u2'].includes(x.user))));
    assert.deepEqual(sortTuples(await store().readByUsers('document', 'viewer', [...users(80), 'group:g#member'])), sortTuples([...tuples, t('group:g#member', 'viewer', 'document:d2')]));
  });

  test('batch reads of more ids than one statement takes (500), with missing and repeated ids', async () => {
    const tuples = Array.from({ length: 1100 }, (_, i) => t(`user:u${i}`, 'viewer', `document:d${i}`));
    await store().writeTuples(tuples, []);
    const ids = [...Array.from({ length: 1100 }, (_, i) => `d${i}`), 'd7', 'missing', 'd1099'];
    assert.deepEqual(sortTuples(await store().readObjectRelations!('document', 'viewer', ids)), sortTuples(tuples));
    const users = [...Array.from({ length: 1100 }, (_, i) => `user:u${i}`), 'user:u3', 'user:nobody'];
    assert.deepEqual(sortTuples(await store().readByUsers('document', 'viewer', users)), sortTuples(tuples));
  });

  test('concurrent reads of every kind, few and many at once, each get exactly their own tuples', async () => {
    const tuples = [
      ...Array.from({ length: 40 }, (_, i) => t(`user:u${i % 7}`, 'viewer', `document:d${i % 20}`)),
      ...Array.from({ length: 10 }, (_, i) => t(`user:u${i}`, 'editor', `document:d${i}`)),
      t('group:g#member', 'viewer', 'document:d1'),
      t('user:*', 'viewer', 'document:d2'),
    ];
    await store().writeTuples(tuples, []);
    const reads = (): Array<() => Promise<TupleKey[]>> => [
      () => store().readObjectRelation('document:d1', 'viewer'),
      () => store().readObjectRelation('document:d1', 'editor'),
      () => store().readObjectRelation('document:nothing', 'viewer'),
      () => store().readObjectRelations!('document', 'viewer', ['d1', 'd2', 'd3']),
      () => store().readObjectRelations!('document', 'editor', Array.from({ length: 25 }, (_, i) => `d${i}`)),
      () => store().readByUsers('document', 'viewer', ['user:u1', 'group:g#member', 'user:*']),
      () => store().readByUsers('document', 'editor', Array.from({ length: 20 }, (_, i) => `user:u${i}`)),
      () => store().readByUsers('document', 'viewer', ['user:u3']),
    ];
    const oneByOne: TupleKey[][] = [];
    for (const read of reads()) oneByOne.push(sortTuples(await read()));
    assert.deepEqual(oneByOne.map((found) => found.length > 0), [true, true, false, true, true, true, true, true]);
    const fewAtOnce = await Promise.all(reads().slice(0, 3).map((read) => read()));
    assert.deepEqual(fewAtOnce.map(sortTuples), oneByOne.slice(0, 3));
    const allAtOnce = await Promise.all(reads().map((read) => read()));
    assert.deepEqual(allAtOnce.map(sortTuples), oneByOne);
    const twiceAtOnce = await Promise.all([...reads(), ...reads()].map((read) => read()));
    assert.deepEqual(twiceAtOnce.map(sortTuples), [...oneByOne, ...oneByOne]);
  });

  test('conditions come back on every read path of the engine', async () => {
    const conditional = (user: string, object: string): TupleKey => ({ ...t(user, 'viewer', object), condition: { name: 'in_hours', context: { hour: 9, zones: ['UTC', 'CET'] } } });
    const written = [conditional('user:anne', 'document:c1'), conditional('user:bob', 'document:c2'), { ...t('user:carl', 'viewer', 'document:c2'), condition: { name: 'in_hours' } }];
    await store().writeTuples(written, []);
    assert.deepEqual(await store().readObjectRelation('document:c1', 'viewer'), [written[0]]);
    assert.deepEqual(sortTuples(await store().readObjectRelations!('document', 'viewer', ['c1', 'c2'])), sortTuples(written));
    assert.deepEqual(sortTuples(await store().readByUsers('document', 'viewer', ['user:anne', 'user:bob', 'user:carl'])), sortTuples(written));
    assert.deepEqual(await store().readByUsers('document', 'viewer', ['user:carl']), [written[2]]);
  });

  test('identifiers are case-sensitive', async () => {
    await store().writeTuples([t('user:Anne', 'viewer', 'document:A'), t('user:anne', 'viewer', 'document:A'), t('user:anne', 'viewer', 'document:a')], []);
    assert.deepEqual(await store().readByUsers('document', 'viewer', ['user:ANNE']), []);
    assert.deepEqual(await store().readByUsers('document', 'viewer', ['user:Anne']), [t('user:Anne', 'viewer', 'document:A')]);
    assert.equal((await store().readObjectRelation('document:a', 'viewer')).length, 1);
  });

  test('conditions are stored with the tuple and do not change its identity', async () => {
    const conditional: TupleKey = { ...t('user:anne', 'viewer', 'document:1'), condition: { name: 'in_hours', context: { hour: 10, zones: ['UTC'] } } };
    await store().writeTuples([conditional, { ...t('user:bob', 'viewer', 'document:1'), condition: { name: 'in_hours' } }], []);
    assert.deepEqual(sortTuples(await store().readObjectRelation('document:1', 'viewer')), sortTuples([conditional, { ...t('user:bob', 'viewer', 'document:1'), condition: { name: 'in_hours' } }]));
    await rejectsWith(store().writeTuples([t('user:anne', 'viewer', 'document:1')], []), 2017, /already exists/);
    await store().writeTuples([], [t('user:anne', 'viewer', 'document:1')]);
    assert.equal(await store().countTuples(), 1);
  });

  test('writing a stored tuple is refused, naming it, and writes nothing', async () => {
    await store().writeTuples([t('user:anne', 'viewer', 'document:1')], []);
    await rejectsWith(
      store().writeTuples([t('user:bob', 'viewer', 'document:1'), t('user:anne', 'viewer', 'document:1')], []),
      2017,
      /^cannot write tuple 'document:1#viewer@user:anne': it already exists$/,
    );
    assert.equal(await store().countTuples(), 1);
  });

  test('two concurrent batches writing the same tuple: one succeeds, the other is refused whole', async () => {
    const results = await Promise.allSettled([
      store().writeTuples([t('user:anne', 'viewer', 'document:race'), t('user:bob', 'viewer', 'document:race')], []),
      store().writeTuples([t('user:carl', 'viewer', 'document:race'), t('user:anne', 'viewer', 'document:race')], []),
    ]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results));
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal(fgaCodeOf(refused.reason), 2017, String(refused.reason));
    assert.equal(await store().countTuples(), 2, 'only the winning batch is stored');
  });

  test('a tuple twice in one batch is refused', async () => {
    await rejectsWith(store().writeTuples([t('user:anne', 'viewer', 'document:1'), t('user:anne', 'viewer', 'document:1')], []), 2004, /appears more than once/);
    await rejectsWith(store().writeTuples([t('user:anne', 'viewer', 'document:1')], [t('user:anne', 'viewer', 'document:1')]), 2004, /document:1#viewer@user:anne/);
    assert.equal(await store().countTuples(), 0);
  });

  test('a batch with one bad delete writes and deletes nothing', async () => {
    await store().writeTuples([t('user:anne', 'viewer', 'document:1'), t('user:bob', 'viewer', 'document:1')], []);
    await rejectsWith(
      store().writeTuples([t('user:carl', 'viewer', 'document:1'), t('user:dan', 'viewer', 'document:2')], [t('user:anne', 'viewer', 'document:1'), t('user:zed', 'viewer', 'document:9')]),
      2017,
      /^cannot delete tuple 'document:9#viewer@user:zed': it does not exist$/,
    );
    assert.deepEqual(sortTuples(await readAll(store())), sortTuples([t('user:anne', 'viewer', 'document:1'), t('user:bob', 'viewer', 'document:1')]));
  });

  test('writes and deletes of one batch apply together', async () => {
    await store().writeTuples([t('user:anne', 'viewer', 'document:1'), t('user:bob', 'viewer', 'document:1')], []);
    await store().writeTuples([t('user:carl', 'viewer', 'document:1')], [t('user:anne', 'viewer', 'document:1')]);
    assert.deepEqual(sortTuples(await readAll(store())), sortTuples([t('user:bob', 'viewer', 'document:1'), t('user:carl', 'viewer', 'document:1')]));
    await store().writeTuples([], [t('user:bob', 'viewer', 'document:1'), t('user:carl', 'viewer', 'document:1')]);
    assert.equal(await store().countTuples(), 0);
    await store().writeTuples([], []);
  });

  test('malformed tuples and parts longer than their column are refused', async () => {
    await rejectsWith(store().writeTuples([t('anne', 'viewer', 'document:1')], []), 2000, /malformed tuple 'document:1#viewer@anne'/);
    await rejectsWith(store().writeTuples([t('user:anne', 'viewer', `document:${'x'.repeat(193)}`)], []), 2000, /its objectId is longer than 192 characters/);
    assert.equal(await store().countTuples(), 0);
  });

  test('read filters: object, object type, relation, user, wildcard, userset and user type', async () => {
    const all = [
      t('user:anne', 'viewer', 'document:1'),
      t('user:*', 'viewer', 'document:1'),
      t('group:eng#member', 'viewer', 'document:2'),
      t('user:anne', 'editor', 'document:2'),
      t('user:anne', 'viewer', 'folder:1'),
      t('group:eng#member', 'viewer', 'folder:1'),
    ];
    await store().writeTuples(all, []);
    const read = async (filter: Record<string, string>) => sortTuples((await store().read(filter, 100)).tuples);
    assert.deepEqual(await read({}), sortTuples(all));
    assert.deepEqual(await read({ object: 'document:1' }), sortTuples([all[0]!, all[1]!]));
    assert.deepEqual(await read({ object: 'document:' }), sortTuples(all.slice(0, 4)));
    assert.deepEqual(await read({ object: 'document:', relation: 'viewer' }), sortTuples(all.slice(0, 3)));
    assert.deepEqual(await read({ relation: 'editor' }), [all[3]!]);
    assert.deepEqual(await read({ user: 'user:anne' }), sortTuples([all[0]!, all[3]!, all[4]!]));
    assert.deepEqual(await read({ user: 'user:*' }), [all[1]!]);
    assert.deepEqual(await read({ user: 'group:eng#member', object: 'folder:' }), [all[5]!]);
    assert.deepEqual(await read({ user: 'group:' }), sortTuples([all[2]!, all[5]!]));
    assert.deepEqual(await read({ user: 'user:anne', relation: 'viewer', object: 'folder:1' }), [all[4]!]);
    assert.deepEqual(await read({ object: 'team:' }), []);
    await rejectsWith(store().read({ object: 'document' }, 10), 2000, /invalid 'object' filter 'document'/);
    await rejectsWith(store().read({ user: 'a:b:c' }, 10), 2000, /invalid 'user' filter/);
    await rejectsWith(store().read({ relation: 'a#b' }, 10), 2000, /invalid 'relation' filter/);
  });

  test('pagination over more than 100 tuples: stable order, page sizes, opaque continuation tokens', async () => {
    const tuples = Array.from({ length: 230 }, (_, i) => t(`user:u${String(i).padStart(3, '0')}`, i % 2 ? 'viewer' : 'editor', `document:${i % 7}`));
    await store().writeTuples(tuples.slice(0, 120), []);
    await store().writeTuples(tuples.slice(120), []);

    const first = await store().read({}, 100);
    assert.equal(first.tuples.length, 100);
    assert.ok(first.continuation_token, 'a token while more remain');
    assert.match(first.continuation_token!, /^[A-Za-z0-9_-]+$/);
    const second = await store().read({}, 100, first.continuation_token);
    const third = await store().read({}, 100, second.continuation_token);
    assert.equal(second.tuples.length, 100);
    assert.equal(third.tuples.length, 30);
    assert.equal(third.continuation_token, undefined, 'no token on the last page');
    assert.deepEqual([...first.tuples, ...second.tuples, ...third.tuples], tuples, 'write order, nothing missed or repeated');
    assert.deepEqual((await store().read({}, 100)).tuples, first.tuples, 'the same page again');

    const byDefault = await store().read({}, 0);
    assert.equal(byDefault.tuples.length, 50, 'default page size 50');
    const exactly = await store().read({ relation: 'viewer' }, 100, (await store().read({ relation: 'viewer' }, 15)).continuation_token);
    assert.deepEqual(exactly.tuples, tuples.filter((x) => x.relation === 'viewer').slice(15));
    assert.equal(exactly.continuation_token, undefined);

    const filtered = await readAll(store(), { object: 'document:3' });
    assert.deepEqual(filtered, tuples.filter((x) => x.object === 'document:3'));

    await rejectsWith(store().read({}, 101), 2000, /page_size must be a whole number from 1 to 100/);
    await rejectsWith(store().read({}, -1), 2000, /page_size/);
    await rejectsWith(store().read({}, 10, 'not a token'), 2007, /invalid continuation_token/);
    await rejectsWith(store().read({}, 10, Buffer.from('{"a":"x"}').toString('base64url')), 2007, /invalid continuation_token/);
    await rejectsWith(store().read({ relation: 'viewer' }, 10, first.continuation_token), 2052, /other filters/);
  });

  test('tuples written after a page was read come after it', async () => {
    await store().writeTuples([t('user:a', 'viewer', 'document:1'), t('user:b', 'viewer', 'document:1')], []);
    const page = await store().read({}, 1);
    await store().writeTuples([t('user:c', 'viewer', 'document:1')], []);
    const rest = await store().read({}, 10, page.continuation_token);
    assert.deepEqual(rest.tuples, [t('user:b', 'viewer', 'document:1'), t('user:c', 'viewer', 'document:1')]);
  });

  test('reset deletes models and tuples', async () => {
    await store().writeModel(MODEL_V1, parseModel(MODEL_V1));
    await store().writeTuples([t('user:anne', 'viewer', 'document:1')], []);
    await store().reset();
    assert.equal(await store().currentModel(), undefined);
    assert.equal(await store().countTuples(), 0);
    assert.deepEqual(await store().readObjectRelation('document:1', 'viewer'), []);
    await store().writeTuples([t('user:anne', 'viewer', 'document:1')], []);
    assert.equal(await store().countTuples(), 1, 'the store is usable after a reset');
  });
}
