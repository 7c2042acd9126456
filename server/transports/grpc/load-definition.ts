/**
 * Turns generated .proto text into a grpc-js package definition without touching the file system: the
 * single executable has no files beside it, so the server parses the same text build/gen-proto.ts writes.
 * protobufjs parses; the google/protobuf imports (Struct) come from the well-known types protobufjs ships;
 * @grpc/proto-loader builds the service definitions from the resulting JSON descriptor.
 */
import protobuf from 'protobufjs';
import { fromJSON, type Options, type PackageDefinition } from '@grpc/proto-loader';

/** Field names stay snake_case as in every other protocol; int64 arrive as numbers (timestamps fit 2^53). */
export const LOADER_OPTIONS: Options = { keepCase: true, longs: Number, enums: String, defaults: false, oneofs: true };

export function loadPackageDefinition(protoText: string): PackageDefinition {
  const parsed = protobuf.parse(protoText, { keepCase: true });
  for (const file of parsed.imports ?? []) {
    const wellKnown = protobuf.common.get(file);
    if (!wellKnown?.nested) throw new Error(`generated proto imports ${file}, which is not a bundled well-known type`);
    parsed.root.addJSON(wellKnown.nested);
  }
  return fromJSON(parsed.root.toJSON(), LOADER_OPTIONS);
}
