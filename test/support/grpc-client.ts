/**
 * A small gRPC client for tests: speaks the generated contract over loopback and converts like a real
 * client would see it, so results compare directly with REST and GraphQL JSON. Known methods go through
 * the proto messages (Map fields as google.protobuf.Struct, via the same schema walk the server uses);
 * a method the contract lacks is still sent (as an empty message) so tests can see UNIMPLEMENTED.
 */
import { Client, Metadata, credentials, type ServiceError } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { registry as defaultRegistry, type Registry } from '../../server/ops/registry.ts';
import { PROTO_PACKAGE, generateProto } from '../../server/transports/grpc/generate-proto.ts';
import { loadPackageDefinition } from '../../server/transports/grpc/load-definition.ts';
import { fromWire, toWire } from '../../server/transports/grpc/wire.ts';

export type MetadataInit = Record<string, string | string[]>;

export interface GrpcReply {
  response: Record<string, unknown>;
  /** Initial (header) metadata, where the server puts `set-cookie`. */
  metadata: Metadata;
}

/** What `call` rejects with. */
export interface GrpcFailure {
  code: number;
  details: string;
  metadata: Metadata;
  /** Trailing metadata of the failure (`retry-after` of a RESOURCE_EXHAUSTED refusal). */
  trailers: Metadata;
}

export interface GrpcTestClient {
  call(service: string, method: string, request?: Record<string, unknown>, metadata?: MetadataInit): Promise<GrpcReply>;
  close(): void;
}

function toMetadata(init: MetadataInit): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(init)) {
    for (const one of Array.isArray(value) ? value : [value]) metadata.add(key, one);
  }
  return metadata;
}

/** `set-cookie` values as `name=value` pairs ready to send back as `cookie` metadata. */
export function cookiesFrom(metadata: Metadata): string {
  return metadata
    .get('set-cookie')
    .map((value) => String(value).split(';')[0]!)
    .join('; ');
}

export function createGrpcClient(port: number, registry: Registry = defaultRegistry): GrpcTestClient {
  const definition = loadPackageDefinition(generateProto(registry));
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  return {
    call(service, method, request = {}, metadata = {}) {
      const op = registry.all.find((candidate) => candidate.grpcService === service && candidate.grpcMethod === method);
      const known = (definition[`${PROTO_PACKAGE}.${service}`] as Record<string, MethodDefinition<object, object>> | undefined)?.[method];
      const serialize = known ? known.requestSerialize : () => Buffer.alloc(0);
      const deserialize = known ? known.responseDeserialize : (bytes: Buffer) => ({ bytes });
      const wireRequest = op ? toWire(op.input, request) : request;
      return new Promise<GrpcReply>((resolve, reject) => {
        let initial = new Metadata();
        const call = client.makeUnaryRequest<object, object>(
          `/${PROTO_PACKAGE}.${service}/${method}`,
          serialize,
          deserialize,
          wireRequest,
          toMetadata(metadata),
          (err: ServiceError | null, response?: object) => {
            if (err) {
              const failure: GrpcFailure = { code: err.code, details: err.details, metadata: initial, trailers: err.metadata };
              reject(failure);
              return;
            }
            resolve({ response: op ? fromWire(op.output, response) : { ...response }, metadata: initial });
          },
        );
        call.on('metadata', (received: Metadata) => {
          initial = received;
        });
      });
    },
    close: () => client.close(),
  };
}

/** The failure a call must end with; fails the test when the call succeeds. */
export async function refusal(promise: Promise<unknown>): Promise<GrpcFailure> {
  try {
    await promise;
  } catch (err) {
    return err as GrpcFailure;
  }
  throw new Error('the call was expected to fail');
}
