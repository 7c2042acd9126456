/**
 * Conditional tuples (OpenFGA ABAC; the specification does not require them): CEL through the engine's
 * adapter over @bufbuild/cel, the refusal at write of a condition that cannot compile, the merge of
 * request and tuple context (the tuple wins), and OpenFGA's error rule (a condition that cannot be
 * evaluated fails the check with 2000 unless another branch allows).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import type { TupleKey } from '../../server/modules/fga/types.ts';
import { parseModel, fgaCodeOf } from '../../server/modules/fga/model/index.ts';
import { createEngine } from '../../server/modules/fga/engine/index.ts';
import { compileCondition, ConditionCompileError } from '../../server/modules/fga/engine/cel-program.ts';
import { toCelInput } from '../../server/modules/fga/engine/cel-context.ts';
import { MAX_CONDITION_ITERATIONS } from '../../server/modules/fga/engine/cel-environment.ts';

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

/** Compiles `expression` over `parameters` (name -> OpenFGA type) and evaluates it over JSON `context`. */
function run(expression: string, parameters: Record<string, string> = {}, context: Record<string, unknown> = {}) {
  const types = Object.fromEntries(Object.entries(parameters).map(([name, type]) => {
    const [outer, inner] = type.split(/[<>]/);
    const typeOf = (t: string) => ({ type_name: `TYPE_NAME_${t.toUpperCase()}` });
    return [name, inner ? { ...typeOf(outer!), generic_types: [typeOf(inner)] } : typeOf(outer!)];
  }));
  const bindings = Object.fromEntries(Object.entries(context).map(([name, value]) => [name, toCelInput(value, types[name]!)]));
  return compileCondition(expression, types).evaluate(bindings);
}

test('CEL: comparisons, logic, arithmetic, timestamps, durations, IP ranges, lists, maps and macros', () => {
  assert.equal(run('x < 100 && !(y == "a")', { x: 'int', y: 'string' }, { x: 5, y: 'b' }), true);
  assert.equal(run('x + 2 * 3 == 11', { x: 'int' }, { x: 5 }), true);
  assert.equal(run('(x > 0.5 ? "big" : "small") == "big"', { x: 'double' }, { x: 0.7 }), true);
  assert.equal(run('t < timestamp("2023-10-11T10:00:00Z")', { t: 'timestamp' }, { t: '2023-10-11T09:59:59Z' }), true);
  // RFC 3339 with an offset and a fraction, as OpenFGA (Go's time.RFC3339) reads it.
  assert.equal(run('t == timestamp("2023-10-11T08:00:00.5Z")', { t: 'timestamp' }, { t: '2023-10-11T10:00:00.5+02:00' }), true);
  assert.equal(run('t + duration("1h") > timestamp("2023-10-11T10:00:00Z")', { t: 'timestamp' }, { t: '2023-10-11T09:30:00Z' }), true);
  assert.equal(run('ip.in_cidr("192.168.0.0/16")', { ip: 'ipaddress' }, { ip: '192.168.4.2' }), true);
  assert.equal(run('ip.in_cidr("2001:db8::/32") && !ip.in_cidr("10.0.0.0/8")', { ip: 'ipaddress' }, { ip: '2001:db8::1' }), true);
  assert.equal(run('ipaddress("10.0.0.1") == ip', { ip: 'ipaddress' }, { ip: '10.0.0.1' }), true);
  for (const [given, text] of [['10.0.0.1', '10.0.0.1'], ['2001:0DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], ['::', '::'], ['1::', '1::'], ['::ffff:10.1.2.3', '::ffff:10.1.2.3'], ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8']]) {
    assert.equal(run(`string(ip) == "${text}"`, { ip: 'ipaddress' }, { ip: given }), true, given);
  }
  assert.equal(run('"b" in ["a", "b"] && m["k"] == 1 && m.k == 1', { m: 'map<int>' }, { m: { k: 1 } }), true);
  assert.equal(run('d == duration("90m")', { d: 'duration' }, { d: '1h30m' }), true);
  assert.equal(run('size(s) == 3 && s.startsWith("ab") && s.endsWith("bc") && s.contains("b") && s.matches("^a.c$")', { s: 'string' }, { s: 'abc' }), true);
  assert.equal(run('l.all(x, x > 0) && l.exists(x, x == 2) && l.map(x, x * 2)[1] == 4 && has(m.k)', { l: 'list<int>', m: 'map<any>' }, { l: [1, 2, 3], m: { k: 'v' } }), true);
  assert.equal(run('u > 1u', { u: 'uint' }, { u: '7' }), true);
  // A decisive side of || wins over an error on the other side, as in CEL.
  assert.equal(run('true || 1 / x > 1', { x: 'int' }, { x: 0 }), true);
  assert.throws(() => run('1 / x > 1', { x: 'int' }, { x: 0 }), /divi/);
});

test('a condition that cannot compile is a ConditionCompileError naming the problem', () => {
  const refused = (expression: string, parameters: Record<string, string>, pattern: RegExp) =>
    assert.throws(() => run(expression, parameters), (err: unknown) => err instanceof ConditionCompileError && pattern.test((err as Error).message), expression);
  refused('x <<< 1', { x: 'int' }, /expecting/);
  refused('x +', { x: 'int' }, /expecting/);
  refused('y > 1', { x: 'int' }, /undeclared reference to 'y'/);
  refused('x + 1', { x: 'int' }, /expected a bool .* got 'int'/);
  refused('x + 1.5 > 2.0', { x: 'int' }, /no matching overload for '_\+_'/);
  refused('x.startsWith("a")', { x: 'int' }, /no matching overload for 'startsWith'/);
  refused('ip.in_cidr(1)', { ip: 'ipaddress' }, /no matching overload for 'in_cidr'/);
  refused('x.field == 1', { x: 'int' }, /no field/);
  // dyn (an `any` parameter) is accepted: its type is known only when the condition is evaluated.
  assert.equal(run('a.b == 1', { a: 'any' }, { a: { b: 1 } }), true);
});

test(`an evaluation takes at most ${MAX_CONDITION_ITERATIONS} comprehension steps, nested ones included`, () => {
  const listOf = (length: number) => Array.from({ length }, (_, i) => i);
  // 40 + 40 x 40 = 1,640 steps.
  assert.throws(() => run('l.all(a, l.all(b, a + b >= 0))', { l: 'list<int>' }, { l: listOf(40) }), /comprehension steps/);
  // 30 + 30 x 30 = 930 steps fit, and the budget starts afresh with every evaluation.
  const program = compileCondition('l.all(a, l.all(b, a + b >= 0))', { l: { type_name: 'TYPE_NAME_LIST', generic_types: [{ type_name: 'TYPE_NAME_INT' }] } });
  for (let i = 0; i < 3; i++) assert.equal(program.evaluate({ l: listOf(30).map(BigInt) }), true);
});

test('a model whose condition does not compile is refused at write with 2056', () => {
  const modelWith = (expression: string) => `model
  schema 1.1
type user
type document
  relations
    define viewer: [user with c]
condition c(x: int) {
  ${expression}
}
`;
  assert.ok(parseModel(modelWith('x < 10')));
  for (const bad of ['x +', 'x + 1', 'y > 1', 'x.startsWith("a")']) {
    assert.throws(() => parseModel(modelWith(bad)), (err: unknown) => fgaCodeOf(err) === 2056 && /condition `c` is invalid/.test((err as Error).message), bad);
  }
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
