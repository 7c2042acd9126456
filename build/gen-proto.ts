/**
 * Writes the gRPC contract generated from the operation registry to proto/portcullis/v1/portcullis.proto.
 * Run after changing any operation: `node_modules/.bin/node build/gen-proto.ts` (npm run gen);
 * test/grpc/proto-drift.test.ts fails while the checked-in file differs from what the registry generates.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { registry } from '../server/ops/registry.ts';
import { generateProto } from '../server/transports/grpc/generate-proto.ts';

export const PROTO_PATH = join(import.meta.dirname, '..', 'proto', 'portcullis', 'v1', 'portcullis.proto');

if (import.meta.main) {
  mkdirSync(dirname(PROTO_PATH), { recursive: true });
  writeFileSync(PROTO_PATH, generateProto(registry));
  console.log(`wrote ${PROTO_PATH}`);
}
