/**
 * Conditional tuples (OpenFGA ABAC; the specification does not require them): the engine's CEL subset, the merge of
 * request and tuple context (the tuple wins), and OpenFGA's error rule (a condition that cannot be
 * evaluated fails the check with 2000 unless another branch allows).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import type { TupleKey } from '../../server/modules/fga/types.ts';
import { parseModel, fgaCodeOf } from '../../server/modules/fga/model/index.ts';
import { createEngine } from '../../server/modules/fga/engine/index.ts';
import { parseCel } from '../../server/modules/fga/engine/cel-parse.ts';
import { evaluate } from '../../server/modules/fga/engine/cel-eval.ts';
import { Duration, IpAddress, Timestamp } from '../../server/modules/fga/engine/cel-values.ts';

const MODEL = parseModel(`model
  schema 1.1
type user
type document
  relations
    define viewer: [user with before, user with office, user, user:*]
    define editor: [user with small]
condition before(now: timestamp, until: timestamp) {
  now < until
}
condition office(ip: ipaddress) {
  ip.in_cidr("10.0.0.0/8")
}
condition small(x: int, limit: int) {
  x < limit || x == 1000
}
`);

function source(tuples: TupleKey[]) {
  return {
    readObjectRelation: async (object: string, relation: string) => tuples.filter((t) => t.object === object && t.relation === relation),
    readByUsers: async (type: string, relation: string, users: readonly string[]) =>
      tuples.filter((t) => t.object.startsWith(`${type}:`) && t.relation === relation && users.includes(t.user)),
  };
}

const isCode2000 = (err: unknown) => err instanceof AppError && err.kind === 'invalid_argument' && fgaCodeOf(err) === 2000;

test('the CEL subset: comparisons, logic, arithmetic, timestamps, durations, IP ranges, lists and maps', () => {
  const run = (expression: string, vars: Record<string, unknown> = {}) => evaluate(parseCel(expression), new Map(Object.entries(vars)));
  assert.equal(run('x < 100 && !(y == "a")', { x: 5n, y: 'b' }), true);
  assert.equal(run('x + 2 * 3 == 11', { x: 5n }), true);
  assert.equal(run('x > 0.5 ? "big" : "small"', { x: 0.7 }), 'big');
  assert.equal(run('t < timestamp("2023-10-11T10:00:00Z")', { t: Timestamp.parse('2023-10-11T09:59:59Z') }), true);
  assert.equal(run('t + duration("1h") > timestamp("2023-10-11T10:00:00Z")', { t: Timestamp.parse('2023-10-11T09:30:00Z') }), true);
  assert.equal(run('ip.in_cidr("192.168.0.0/16")', { ip: new IpAddress('192.168.4.2') }), true);
  assert.equal(run('ip.in_cidr("2001:db8::/32")', { ip: new IpAddress('2001:db8::1') }), true);
  assert.equal(run('"b" in ["a", "b"] && m["k"] == 1', { m: new Map([['k', 1n]]) }), true);
  assert.equal(run('d == duration("90m")', { d: Duration.parse('1h30m') }), true);
  // A decisive side of || wins over an error on the other side, as in CEL.
  assert.equal(run('true || missing > 1'), true);
  assert.throws(() => run('x + 1.5', { x: 1n }), /no such overload/);
  assert.throws(() => parseCel('x <<< 1'), SyntaxError);
});

test('a met condition grants; an unmet one does not; a missing parameter is 2000 unless another branch allows', async () => {
  const until = '2030-01-01T00:00:00Z';
  const engine = createEngine({
    model: MODEL,
    source: source([
      { object: 'document:1', relation: 'viewer', user: 'user:anne', condition: { name: 'before', context: { until } } },
      { object: 'document:2', relation: 'viewer', user: 'user:anne', condition: { name: 'office' } },
      { object: 'document:2', relation: 'viewer', user: 'user:*' },
    ]),
  });
  const check = (object: string, context?: Record<string, unknown>) => engine.check({ user: 'user:anne', relation: 'viewer', object, context });
  assert.deepEqual(await check('document:1', { now: '2029-12-31T23:59:59Z' }), { allowed: true });
  assert.deepEqual(await check('document:1', { now: '2030-01-01T00:00:01Z' }), { allowed: false });
  // The tuple's own context wins over the request's.
  assert.deepEqual(await check('document:1', { now: '2029-01-01T00:00:00Z', until: '2000-01-01T00:00:00Z' }), { allowed: true });
  await assert.rejects(check('document:1'), isCode2000);
  await assert.rejects(check('document:1', { now: 'not a time' }), isCode2000);
  // document:2: the condition cannot be evaluated, but the wildcard branch allows.
  assert.deepEqual(await check('document:2'), { allowed: true });
});

test('list objects and list users apply conditions with the request context', async () => {
  const engine = createEngine({
    model: MODEL,
    source: source([
      { object: 'document:1', relation: 'editor', user: 'user:bob', condition: { name: 'small', context: { limit: 10 } } },
      { object: 'document:2', relation: 'editor', user: 'user:bob', condition: { name: 'small', context: { limit: 100 } } },
    ]),
  });
  const objects = await engine.listObjects({ user: 'user:bob', type: 'document', relation: 'editor', context: { x: 50 } });
  assert.deepEqual(objects.objects, ['document:2']);
  const users = await engine.listUsers({ object: 'document:1', relation: 'editor', userFilters: [{ type: 'user' }], context: { x: 1000 } });
  assert.deepEqual(users.users, ['user:bob']);
  await assert.rejects(engine.listUsers({ object: 'document:1', relation: 'editor', userFilters: [{ type: 'user' }] }), isCode2000);
});
