/**
 * The checked-in contract must be exactly what the registry generates (docs/architecture.md: proto/ is
 * generated, checked in, drift-checked). On failure run `node_modules/.bin/node build/gen-proto.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { registry } from '../../server/ops/registry.ts';
import { generateProto } from '../../server/transports/grpc/generate-proto.ts';
import { PROTO_PATH } from '../../build/gen-proto.ts';

test('proto/portcullis/v1/portcullis.proto matches the registry', () => {
  const checkedIn = readFileSync(PROTO_PATH, 'utf8');
  assert.equal(
    checkedIn,
    generateProto(registry),
    'the checked-in proto is stale: run `node_modules/.bin/node build/gen-proto.ts` and commit the result',
  );
});
