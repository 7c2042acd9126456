/**
 * Raw protobuf bytes for hostile gRPC requests that a well-behaved client cannot build: a
 * google.protobuf.Struct nested thousands deep (the test client's own converter is recursive), written
 * inside out so that building it needs no stack. Wire format: protobuf encoding guide, "Length-delimited
 * records"; Struct is `map<string, Value> fields = 1` (entries: key = 1, value = 2), Value.struct_value = 5.
 */
import { Client, Metadata, credentials, type ServiceError } from '@grpc/grpc-js';
import { PROTO_PACKAGE } from '../../server/transports/grpc/generate-proto.ts';

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** A length-delimited field (wire type 2). */
export function lengthDelimited(field: number, payload: Buffer): Buffer {
  return Buffer.concat([varint((field << 3) | 2), varint(payload.length), payload]);
}

/** Struct `{"a": {"a": ... {} }}` nested `depth` deep. */
export function deepStruct(depth: number): Buffer {
  let struct: Buffer = Buffer.alloc(0);
  const key = lengthDelimited(1, Buffer.from('a'));
  for (let i = 0; i < depth; i += 1) {
    const value = lengthDelimited(5, struct);
    const entry = Buffer.concat([key, lengthDelimited(2, value)]);
    struct = lengthDelimited(1, entry);
  }
  return struct;
}

export interface RawOutcome {
  code: number;
  details: string;
}

/** Sends bytes as the request of `service/method`; resolves with the status (0 on success). */
export function callRaw(port: number, service: string, method: string, body: Buffer, metadata: Record<string, string> = {}): Promise<RawOutcome> {
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  const meta = new Metadata();
  for (const [key, value] of Object.entries(metadata)) meta.add(key, value);
  return new Promise((resolve) => {
    client.makeUnaryRequest<Buffer, Buffer>(
      `/${PROTO_PACKAGE}.${service}/${method}`,
      (bytes) => bytes,
      (bytes) => bytes,
      body,
      meta,
      { deadline: Date.now() + 10_000 },
      (err: ServiceError | null) => {
        client.close();
        resolve(err ? { code: err.code, details: err.details } : { code: 0, details: '' });
      },
    );
  });
}
