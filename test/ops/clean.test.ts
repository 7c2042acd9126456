/**
 * ops/clean.ts prepares per schema what TypeBox's Value.Clean does on every call. Output cleaning is what
 * keeps undeclared fields from leaving the server, so the two must agree: for every operation's input
 * (with its derived limits) and output schema, on values generated from the schema itself (declared
 * fields, wrong types, extra keys, Map keys with line breaks), both give the same result. One difference
 * is on purpose: Value.Clean tests `key in properties`, so it keeps undeclared keys named like
 * Object.prototype members (`constructor`, `toString`, `__proto__`); the prepared cleaner removes them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { OPERATIONS } from '../../server/ops/registry.ts';
import { withInputLimits } from '../../server/ops/input-limits.ts';
import { cleanerFor } from '../../server/ops/clean.ts';

const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));
const extraKey = fc
  .oneof(fc.string({ maxLength: 6 }), fc.constantFrom('line\nbreak', 'cr\r', '', 'password_hash'))
  .filter((key) => !INHERITED.has(key));
const anything = fc.anything({ key: extraKey, maxDepth: 2 });

function valuesOf(schema: TSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return anything;
  switch (schema[Kind]) {
    case 'Object': {
      const properties = (schema.properties ?? {}) as Record<string, TSchema>;
      const declared = fc.record(
        Object.fromEntries(Object.keys(properties).map((key) => [key, valuesOf(properties[key]!, depth + 1)])),
        { requiredKeys: [] },
      );
      const extra = fc.dictionary(extraKey, anything, { maxKeys: 3 });
      const object = fc.tuple(extra, declared).map(([more, known]) => ({ ...more, ...known }));
      return fc.oneof({ weight: 8, arbitrary: object }, { weight: 1, arbitrary: anything });
    }
    case 'Record':
      return fc.oneof({ weight: 8, arbitrary: fc.dictionary(extraKey, anything, { maxKeys: 5 }) }, { weight: 1, arbitrary: anything });
    case 'Array':
      return fc.oneof({ weight: 4, arbitrary: fc.array(valuesOf(schema.items as TSchema, depth + 1), { maxLength: 3 }) }, { weight: 1, arbitrary: anything });
    default:
      return anything;
  }
}

const schemas = OPERATIONS.flatMap((op) => [
  { name: `${op.name} input`, schema: withInputLimits(op.input) as TSchema },
  { name: `${op.name} output`, schema: op.output as TSchema },
]);

test('the prepared cleaner and Value.Clean agree on every operation schema', () => {
  for (const { name, schema } of schemas) {
    fc.assert(
      fc.property(valuesOf(schema), (value) => {
        const ours = cleanerFor(schema)(structuredClone(value));
        const theirs = Value.Clean(schema, structuredClone(value));
        assert.deepStrictEqual(ours, theirs, name);
      }),
      { numRuns: 60 },
    );
  }
});

test('undeclared fields are removed at any depth, Map entries kept', () => {
  const output = OPERATIONS.find((op) => op.name === 'validate_jwt_token')!.output as TSchema;
  const cleaned = cleanerFor(output)({ is_valid: true, secret: 'x', claims: { sub: 'u', nested: { password_hash: 'kept: Maps are free-form' } } });
  assert.deepStrictEqual(cleaned, { is_valid: true, claims: { sub: 'u', nested: { password_hash: 'kept: Maps are free-form' } } });
});

test('undeclared keys named like Object.prototype members are removed too (Value.Clean keeps them)', () => {
  const output = OPERATIONS.find((op) => op.name === 'validate_jwt_token')!.output as TSchema;
  const value = JSON.parse('{"is_valid":true,"constructor":"x","toString":"y","__proto__":{"polluted":true}}') as unknown;
  assert.deepStrictEqual(cleanerFor(output)(structuredClone(value)), { is_valid: true });
  assert.ok(Object.hasOwn(Value.Clean(output, structuredClone(value)) as object, 'constructor'), 'the quirk this guards against');
});
