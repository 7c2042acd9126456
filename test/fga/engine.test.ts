/**
 * The engine's own guarantees beyond the OpenFGA cases: the depth limit answers an error
 * (never a stack overflow), cycles answer "not allowed" (never a hang), sub-problems run with bounded
 * concurrency and share one read per request, contextual tuples are never stored, and expand answers
 * OpenFGA's tree shape. The tuple source is a plain in-memory TupleSource that records its reads.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import type { TupleKey, TupleSource } from '../../server/modules/fga/types.ts';
import { parseModel, fgaCodeOf } from '../../server/modules/fga/model/index.ts';
import { createEngine, isResolutionTooComplex } from '../../server/modules/fga/engine/index.ts';

const GROUPS = parseModel(`model
  schema 1.1
type user
type group
  relations
    define member: [user, user:*, group#member]
type folder
  relations
    define viewer: [user, group#member]
type document
  relations
    define parent: [folder]
    define owner: [user]
    define blocked: [user]
    define viewer: ([user, group#member] or owner or viewer from parent) but not blocked
`);

/** An in-memory TupleSource that counts reads and the most reads in flight at once. */
function recordingSource(tuples: TupleKey[], delayMs = 0) {
  const stats = { reads: 0, inFlight: 0, maxInFlight: 0, byKey: new Map<string, number>() };
  const read = async <T>(key: string, answer: () => T): Promise<T> => {
    stats.reads++;
    stats.byKey.set(key, (stats.byKey.get(key) ?? 0) + 1);
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer();
    } finally {
      stats.inFlight--;
    }
  };
  const source: TupleSource = {
    readObjectRelation: (object, relation) =>
      read(`${object}#${relation}`, () => tuples.filter((t) => t.object === object && t.relation === relation)),
    readByUsers: (type, relation, users) =>
      read(`${type}#${relation}@${users.join(',')}`, () =>
        tuples.filter((t) => t.object.startsWith(`${type}:`) && t.relation === relation && users.includes(t.user))),
  };
  return { source, stats };
}

/** group:0#member <- group:1#member <- ... <- group:(n-1)#member <- user:deep */
function chain(length: number): TupleKey[] {
  const tuples: TupleKey[] = [];
  for (let i = 0; i < length - 1; i++) tuples.push({ object: `group:${i}`, relation: 'member', user: `group:${i + 1}#member` });
  tuples.push({ object: `group:${length - 1}`, relation: 'member', user: 'user:deep' });
  return tuples;
}

describe('depth limit', () => {
  test('a chain within the limit resolves; one past it answers "resolution too complex" (2002)', async () => {
    const shallow = createEngine({ model: GROUPS, source: recordingSource(chain(20)).source });
    assert.deepEqual(await shallow.check({ user: 'user:deep', relation: 'member', object: 'group:0' }), { allowed: true });

    const deep = createEngine({ model: GROUPS, source: recordingSource(chain(40)).source });
    await assert.rejects(deep.check({ user: 'user:deep', relation: 'member', object: 'group:0' }), (err: unknown) => {
      assert.ok(err instanceof AppError);
      assert.equal(err.kind, 'invalid_argument');
      assert.match(err.message, /resolution too complex/);
      assert.equal(fgaCodeOf(err), 2002);
      assert.ok(isResolutionTooComplex(err));
      return true;
    });
    // list objects and list users confirm through check, so they answer the same error.
    await assert.rejects(deep.listUsers({ object: 'group:0', relation: 'member', userFilters: [{ type: 'user' }] }), /resolution too complex/);
  });

  test('a very deep chain with a raised limit resolves without overflowing the stack', async () => {
    const engine = createEngine({ model: GROUPS, source: recordingSource(chain(1000)).source, maxDepth: 2000 });
    assert.deepEqual(await engine.check({ user: 'user:deep', relation: 'member', object: 'group:0' }), { allowed: true });
  });

  test('the limit is configurable', async () => {
    const engine = createEngine({ model: GROUPS, source: recordingSource(chain(5)).source, maxDepth: 3 });
    await assert.rejects(engine.check({ user: 'user:deep', relation: 'member', object: 'group:0' }), /resolution too complex/);
    assert.throws(() => createEngine({ model: GROUPS, source: recordingSource([]).source, maxDepth: 0 }), RangeError);
  });
});

describe('cycles', () => {
  const ring: TupleKey[] = [
    { object: 'group:a', relation: 'member', user: 'group:b#member' },
    { object: 'group:b', relation: 'member', user: 'group:c#member' },
    { object: 'group:c', relation: 'member', user: 'group:a#member' },
  ];

  test('a userset cycle answers not allowed, promptly', async () => {
    const engine = createEngine({ model: GROUPS, source: recordingSource(ring).source });
    const started = performance.now();
    assert.deepEqual(await engine.check({ user: 'user:x', relation: 'member', object: 'group:a' }), { allowed: false });
    assert.deepEqual(await engine.listObjects({ user: 'user:x', type: 'group', relation: 'member' }), { objects: [], truncated: false });
    assert.ok(performance.now() - started < 1000);
  });

  test('a member reached around the cycle is still found from every group of the ring', async () => {
    const engine = createEngine({ model: GROUPS, source: recordingSource([...ring, { object: 'group:c', relation: 'member', user: 'user:x' }]).source });
    for (const group of ['group:a', 'group:b', 'group:c']) {
      assert.deepEqual(await engine.check({ user: 'user:x', relation: 'member', object: group }), { allowed: true }, group);
    }
    const listed = await engine.listObjects({ user: 'user:x', type: 'group', relation: 'member' });
    assert.deepEqual(listed.objects.sort(), ['group:a', 'group:b', 'group:c']);
    const users = await engine.listUsers({ object: 'group:a', relation: 'member', userFilters: [{ type: 'group', relation: 'member' }] });
    assert.deepEqual(users.users.sort(), ['group:a#member', 'group:b#member', 'group:c#member']);
  });
});

describe('bounded concurrency and the per-request cache', () => {
  // document:d is viewable through 60 groups; only the last one holds the user.
  const fanOut: TupleKey[] = [];
  for (let i = 0; i < 60; i++) fanOut.push({ object: 'document:d', relation: 'viewer', user: `group:g${i}#member` });
  fanOut.push({ object: 'group:g59', relation: 'member', user: 'user:last' });

  test('store reads in flight never exceed maxConcurrentReads, and do run concurrently', async () => {
    const { source, stats } = recordingSource(fanOut, 5);
    const engine = createEngine({ model: GROUPS, source, concurrency: 20, maxConcurrentReads: 4 });
    assert.deepEqual(await engine.check({ user: 'user:last', relation: 'viewer', object: 'document:d' }), { allowed: true });
    assert.ok(stats.maxInFlight <= 4, `max in flight ${stats.maxInFlight}`);
    assert.ok(stats.maxInFlight > 1, 'the fan-out ran concurrently');
  });

  test('a fan-out limit of 1 resolves one sub-problem at a time', async () => {
    // folder#viewer is direct only (no exclusion, whose two sides always start together).
    const folderFanOut = fanOut.map((t) => (t.object === 'document:d' ? { ...t, object: 'folder:d' } : t));
    const { source, stats } = recordingSource(folderFanOut, 1);
    const engine = createEngine({ model: GROUPS, source, concurrency: 1 });
    assert.deepEqual(await engine.check({ user: 'user:last', relation: 'viewer', object: 'folder:d' }), { allowed: true });
    assert.equal(stats.maxInFlight, 1);
  });

  test('a request past the throttle threshold yields to the event loop instead of monopolising it', async () => {
    // A source answering from memory without any I/O: without the throttle, the whole check would run in
    // one drain of the microtask queue and nothing else in the process could run meanwhile.
    const wide = Array.from({ length: 1000 }, (_, i) => ({ object: 'folder:w', relation: 'viewer', user: `group:w${i}#member` }));
    const source: TupleSource = {
      readObjectRelation: async (object, relation) => wide.filter((t) => t.object === object && t.relation === relation),
      readByUsers: async () => [],
    };
    const engine = createEngine({ model: GROUPS, source });
    let done = false;
    let othersRanDuring = false;
    setImmediate(() => {
      othersRanDuring = !done;
    });
    assert.deepEqual(await engine.check({ user: 'user:nobody', relation: 'viewer', object: 'folder:w' }), { allowed: false });
    done = true;
    assert.equal(othersRanDuring, true);
  });

  test('a batch of concurrent checks on one engine reads each object#relation once', async () => {
    const { source, stats } = recordingSource(fanOut, 2);
    const engine = createEngine({ model: GROUPS, source });
    const users = Array.from({ length: 50 }, (_, i) => (i % 2 ? 'user:last' : `user:other${i}`));
    const answers = await Promise.all(users.map((user) => engine.check({ user, relation: 'viewer', object: 'document:d' })));
    assert.deepEqual(answers.map((a) => a.allowed), users.map((user) => user === 'user:last'));
    for (const [key, count] of stats.byKey) assert.equal(count, 1, `${key} read ${count} times`);
    // A later engine (the next request) reads again: the cache does not outlive its request.
    const before = stats.reads;
    await createEngine({ model: GROUPS, source }).check({ user: 'user:last', relation: 'viewer', object: 'document:d' });
    assert.ok(stats.reads > before);
  });
});

describe('semantics', () => {
  const tuples: TupleKey[] = [
    { object: 'document:1', relation: 'parent', user: 'folder:f' },
    { object: 'folder:f', relation: 'viewer', user: 'group:eng#member' },
    { object: 'group:eng', relation: 'member', user: 'user:*' },
    { object: 'document:1', relation: 'blocked', user: 'user:mallory' },
    { object: 'document:1', relation: 'owner', user: 'user:olga' },
  ];

  test('wildcards through usersets and tuple-to-userset, with exclusion', async () => {
    const engine = createEngine({ model: GROUPS, source: recordingSource(tuples).source });
    const check = (user: string) => engine.check({ user, relation: 'viewer', object: 'document:1' }).then((a) => a.allowed);
    assert.equal(await check('user:anyone'), true);
    assert.equal(await check('user:mallory'), false);
    assert.equal(await check('user:olga'), true);
    assert.deepEqual(
      (await engine.listUsers({ object: 'document:1', relation: 'viewer', userFilters: [{ type: 'user' }] })).users.sort(),
      ['user:*', 'user:olga'],
    );
    assert.deepEqual((await engine.listObjects({ user: 'user:mallory', type: 'document', relation: 'viewer' })).objects, []);
  });

  test('contextual tuples count for one call only and are never stored', async () => {
    const stored: TupleKey[] = [];
    const engine = createEngine({ model: GROUPS, source: recordingSource(stored).source });
    const contextualTuples = [{ object: 'document:2', relation: 'owner', user: 'user:temp' }];
    assert.deepEqual(await engine.check({ user: 'user:temp', relation: 'viewer', object: 'document:2', contextualTuples }), { allowed: true });
    assert.deepEqual(await engine.check({ user: 'user:temp', relation: 'viewer', object: 'document:2' }), { allowed: false });
    assert.equal(stored.length, 0);
  });

  test('an invalid contextual tuple or request is invalid_argument with the OpenFGA code', async () => {
    const engine = createEngine({ model: GROUPS, source: recordingSource([]).source });
    await assert.rejects(
      engine.check({ user: 'user:a', relation: 'viewer', object: 'document:1', contextualTuples: [{ object: 'document:1', relation: 'nope', user: 'user:a' }] }),
      (err: unknown) => err instanceof AppError && err.kind === 'invalid_argument' && fgaCodeOf(err) === 2027,
    );
    await assert.rejects(
      engine.check({ user: 'user:a', relation: 'nope', object: 'document:1' }),
      (err: unknown) => err instanceof AppError && fgaCodeOf(err) === 2000,
    );
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ object: `document:${i}`, relation: 'owner', user: 'user:a' }));
    await assert.rejects(engine.check({ user: 'user:a', relation: 'viewer', object: 'document:1', contextualTuples: tooMany }), /at most 100/);
  });

  test('list objects honours maxResults and says when it truncated', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ object: `document:${i}`, relation: 'owner', user: 'user:many' }));
    const engine = createEngine({ model: GROUPS, source: recordingSource(many).source });
    const all = await engine.listObjects({ user: 'user:many', type: 'document', relation: 'viewer' });
    assert.equal(all.objects.length, 30);
    assert.equal(all.truncated, false);
    const some = await engine.listObjects({ user: 'user:many', type: 'document', relation: 'viewer', maxResults: 10 });
    assert.equal(some.objects.length, 10);
    assert.equal(some.truncated, true);
  });

  test('expand answers the one-level userset tree in OpenFGA\'s shape, JSON-serialisable', async () => {
    const engine = createEngine({ model: GROUPS, source: recordingSource(tuples).source });
    const tree = await engine.expand({ object: 'document:1', relation: 'viewer' });
    assert.deepEqual(JSON.parse(JSON.stringify(tree)), {
      tree: {
        root: {
          name: 'document:1#viewer',
          difference: {
            base: {
              name: 'document:1#viewer',
              union: {
                nodes: [
                  { name: 'document:1#viewer', leaf: { users: { users: [] } } },
                  { name: 'document:1#viewer', leaf: { computed: { userset: 'document:1#owner' } } },
                  { name: 'document:1#viewer', leaf: { tupleToUserset: { tupleset: 'document:1#parent', computed: [{ userset: 'folder:f#viewer' }] } } },
                ],
              },
            },
            subtract: { name: 'document:1#viewer', leaf: { computed: { userset: 'document:1#blocked' } } },
          },
        },
      },
    });
    const group = await engine.expand({ object: 'group:eng', relation: 'member' });
    assert.deepEqual(group.tree.root, { name: 'group:eng#member', leaf: { users: { users: ['user:*'] } } });
  });
});

describe('merged reads and the direct-membership shortcut', () => {
  const TEAMS = parseModel(`model
  schema 1.1
type user
type team
  relations
    define member: [user, user:*]
type document
  relations
    define viewer: [user, team#member]
`);
  const tuples: TupleKey[] = [];
  for (let d = 0; d < 40; d++) tuples.push({ object: `document:${d}`, relation: 'viewer', user: `team:t${d % 8}#member` });
  tuples.push({ object: 'team:t3', relation: 'member', user: 'user:ann' });
  tuples.push({ object: 'team:t5', relation: 'member', user: 'user:*' });

  test('a source with readObjectRelations gets one merged read per relation for a concurrent batch', async () => {
    const { source, stats } = recordingSource(tuples);
    const batches: number[] = [];
    const batched: TupleSource = {
      ...source,
      readObjectRelations: async (type, relation, ids) => {
        batches.push(ids.length);
        return (await Promise.all(ids.map((id) => source.readObjectRelation(`${type}:${id}`, relation)))).flat();
      },
    };
    const engine = createEngine({ model: TEAMS, source: batched });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, d) => engine.check({ user: 'user:ann', relation: 'viewer', object: `document:${d}` })),
    );
    // ann is in t3 directly and in t5 through the wildcard.
    assert.deepEqual(answers.map((a, d) => [d, a.allowed]).filter(([, allowed]) => allowed).map(([d]) => d),
      Array.from({ length: 40 }, (_, d) => d).filter((d) => d % 8 === 3 || d % 8 === 5));
    assert.deepEqual(batches, [40], 'the 40 document reads went out as one batch');
    // Team memberships were read once, for the user and the wildcard together, not once per team.
    const memberReads = [...stats.byKey.keys()].filter((key) => key.startsWith('team#member@'));
    assert.deepEqual(memberReads.sort(), ['team#member@user:ann,user:*']);
  });
});

describe('list objects without confirming checks', () => {
  const FOLDERS = parseModel(`model
  schema 1.1
type user
type org
  relations
    define admin: [user]
type folder
  relations
    define org: [org]
    define viewer: [user] or admin from org
type document
  relations
    define parent: [folder]
    define viewer: [user] or viewer from parent
`);
  const tuples: TupleKey[] = [{ object: 'org:o', relation: 'admin', user: 'user:ann' }];
  for (let f = 0; f < 5; f++) tuples.push({ object: `folder:${f}`, relation: 'org', user: 'org:o' });
  for (let d = 0; d < 50; d++) tuples.push({ object: `document:${d}`, relation: 'parent', user: `folder:${d % 5}` });

  test('objects reached through unions of unconditioned tuples are listed with reverse reads only', async () => {
    const { source, stats } = recordingSource(tuples);
    const engine = createEngine({ model: FOLDERS, source });
    const { objects } = await engine.listObjects({ user: 'user:ann', relation: 'viewer', type: 'document' });
    assert.deepEqual(objects.sort(), Array.from({ length: 50 }, (_, d) => `document:${d}`).sort());
    const objectReads = [...stats.byKey.keys()].filter((key) => !key.includes('@'));
    assert.deepEqual(objectReads, [], 'no document or folder was read forward, as a confirming check would');
  });

  test('behind `but not` every candidate is still confirmed by a check', async () => {
    const { source, stats } = recordingSource([
      { object: 'document:1', relation: 'owner', user: 'user:ann' },
      { object: 'document:2', relation: 'owner', user: 'user:ann' },
      { object: 'document:2', relation: 'blocked', user: 'user:ann' },
    ]);
    const engine = createEngine({ model: GROUPS, source });
    assert.deepEqual((await engine.listObjects({ user: 'user:ann', relation: 'viewer', type: 'document' })).objects, ['document:1']);
    assert.ok(stats.byKey.has('document:2#blocked'), 'the exclusion was checked');
  });
});
