/**
 * docs/operations.md is generated from the operation registry (build/gen-operations-doc.ts), as proto/,
 * graphql/ and openapi/ are (test/grpc/proto-drift.test.ts, test/http/openapi-drift.test.ts): the checked-in
 * page must be exactly what the registry writes, so a comment citing docs/operations.md#<name> lands on that
 * operation as it is. On a failure run `npm run gen` and commit the result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { registry } from '../../server/ops/registry.ts';
import { OPERATIONS_DOC_FILE, operationsDoc } from '../../build/gen-operations-doc.ts';

const committed = readFileSync(OPERATIONS_DOC_FILE, 'utf8');

test('docs/operations.md matches the registry', () => {
  assert.equal(committed, operationsDoc(registry), 'docs/operations.md is stale: run `npm run gen` and commit the result');
});

test('every operation has a section whose heading is its name, with its REST route and GraphQL field', () => {
  for (const op of registry.all) {
    const start = committed.indexOf(`\n## ${op.name}\n`);
    assert.ok(start >= 0, `no section for ${op.name}`);
    const end = committed.indexOf('\n## ', start + 1);
    const body = committed.slice(start, end < 0 ? undefined : end);
    if (op.restRoute) assert.ok(body.includes(`\`${op.restRoute.method} ${op.restRoute.path}\``), `${op.name}: REST route`);
    assert.ok(body.includes(`\`${op.graphqlName}`), `${op.name}: GraphQL field`);
  }
});

test('a registry with one more operation gives a different page (the check has teeth)', () => {
  const [first] = registry.all;
  const extra = { ...first!, name: 'zz_not_an_operation', graphqlName: 'zz_not_an_operation' };
  const page = operationsDoc({ all: [...registry.all, extra], byName: registry.byName });
  assert.notEqual(page, committed);
  assert.match(page, /\n## zz_not_an_operation\n/);
});
