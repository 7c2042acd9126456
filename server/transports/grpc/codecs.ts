/**
 * Each rpc's protobuf codec (decode the request bytes, encode the reply), from the proto generated from the
 * registry: the same text as proto/portcullis/v1/portcullis.proto, parsed by protobufjs and turned into
 * message converters by @grpc/proto-loader with LOADER_OPTIONS. index.ts imports this module lazily and
 * builds the codecs with the first call: parsing the proto and loading protobufjs is a tenth of the start
 * time, and a server may never receive a gRPC call.
 */
import type { ServiceDefinition } from '@grpc/grpc-js';
import type { Registry } from '../../ops/registry.ts';
import { GRPC_SERVICES, PROTO_PACKAGE, generateProto } from './generate-proto.ts';
import { loadPackageDefinition } from './load-definition.ts';
import { refusingUndecodable } from './wire.ts';

export interface MethodCodec {
  /** Never throws: bytes that do not decode give the marker fromWire refuses with INVALID_ARGUMENT. */
  decodeRequest(bytes: Buffer): unknown;
  encodeReply(message: unknown): Buffer;
}

/** Codecs by method path (`/portcullis.v1.PublicService/Meta`), as grpc-js routes calls. */
export function buildMethodCodecs(registry: Registry): Map<string, MethodCodec> {
  const definition = loadPackageDefinition(generateProto(registry));
  const codecs = new Map<string, MethodCodec>();
  for (const service of GRPC_SERVICES) {
    const methods = definition[`${PROTO_PACKAGE}.${service}`] as ServiceDefinition | undefined;
    if (!methods) continue;
    for (const method of Object.values(refusingUndecodable(methods))) {
      codecs.set(method.path, { decodeRequest: method.requestDeserialize, encodeReply: method.responseSerialize });
    }
  }
  return codecs;
}
