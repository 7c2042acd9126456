/**
 * gRPC transport (docs/api-overview.md#three-protocols-one-registry: native gRPC on --grpc-port, separate public and admin
 * services). The service definitions come from the generated proto text, so the contract served is exactly
 * the checked-in proto/portcullis/v1/portcullis.proto. Each rpc builds an OpContext, runs invoke(), and
 * answers with the result or with the gRPC status of the AppError kind. Operations marked `grpc: false`
 * have no rpc, and grpc-js answers UNIMPLEMENTED for them like for any unknown method.
 *
 * The methods are registered at start from the registry alone (paths need no proto); grpc-js hands each
 * handler the raw request bytes and sends the bytes the handler encoded. The protobuf codecs (codecs.ts,
 * protobufjs and the parsed proto) load with the first call, so a server starts without them.
 */
import { Metadata, Server, type MethodDefinition, type ServerUnaryCall, type sendUnaryData, type UntypedHandleCall } from '@grpc/grpc-js';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';
import type { AnyOperation } from '../../ops/define.ts';
import { invoke } from '../../ops/invoke.ts';
import { logConverted, toAppError, type AppError } from '../../kernel/errors.ts';
import { limitBucketOf } from '../../kernel/limits.ts';
import { GRPC_SERVICES, PROTO_PACKAGE } from './generate-proto.ts';
import type { MethodCodec } from './codecs.ts';
import { buildGrpcContext, clientIpResolver, effectsMetadata, type ClientIp } from './call-context.ts';
import { fromWire, statusDetails, toWire } from './wire.ts';
import { GRPC_STATUS_BY_KIND } from './status.ts';
import { clientKey } from '../../modules/limits/index.ts';

type UnaryCall = ServerUnaryCall<Buffer, Buffer>;
type CodecFor = (route: string) => Promise<MethodCodec>;

/** grpc-js carries bytes both ways; the handler decodes and encodes them with the method's codec. */
const rawBytes = (bytes: Buffer): Buffer => bytes;

function rawMethod(path: string, name: string): MethodDefinition<Buffer, Buffer> {
  return {
    path,
    originalName: name,
    requestStream: false,
    responseStream: false,
    requestSerialize: rawBytes,
    requestDeserialize: rawBytes,
    responseSerialize: rawBytes,
    responseDeserialize: rawBytes,
  };
}

/** The codecs, built once with the first call (concurrent first calls share the build). */
function lazyCodecs(registry: Registry): CodecFor {
  let codecs: Promise<Map<string, MethodCodec>> | undefined;
  return async (route) => {
    codecs ??= import('./codecs.ts').then(({ buildMethodCodecs }) => buildMethodCodecs(registry));
    const codec = (await codecs).get(route);
    if (!codec) throw new Error(`no protobuf codec for ${route}: the generated proto lacks this method`);
    return codec;
  };
}

/** `retry-after` trailing metadata (seconds, as HTTP's Retry-After) for a refusal that names when to retry. */
function trailersFor(error: AppError): Metadata | undefined {
  if (error.retryAfterSeconds === undefined) return undefined;
  const trailers = new Metadata();
  trailers.set('retry-after', String(error.retryAfterSeconds));
  return trailers;
}

async function serveUnary(deps: Deps, op: AnyOperation, route: string, clientIp: ClientIp, codecFor: CodecFor, call: UnaryCall, callback: sendUnaryData<Buffer>): Promise<void> {
  const ctx = buildGrpcContext(deps, call as unknown as ServerUnaryCall<unknown, unknown>, clientIp);
  let reply: Buffer;
  try {
    // The per-IP limit of every method (docs/limits.md), before any work, as on HTTP.
    await deps.limits.consume('ip', clientKey(ctx.req.ip));
    const codec = await codecFor(route);
    const output = await invoke(op, ctx, fromWire(op.input, codec.decodeRequest(call.request)));
    reply = codec.encodeReply(toWire(op.output, output));
  } catch (err) {
    const appError = toAppError(err, ctx.req.requestId);
    logConverted(ctx.log, err, appError, { op: op.name }, 'gRPC call failed outside the operation pipeline');
    const bucket = limitBucketOf(appError);
    if (bucket) deps.metrics.limited(route, bucket);
    // Cookies set before the failure still reach the client, as on REST (effects are applied on failure too).
    call.sendMetadata(effectsMetadata(ctx.effects));
    callback({ code: GRPC_STATUS_BY_KIND[appError.kind], details: statusDetails(appError.message), metadata: trailersFor(appError) });
    return;
  }
  call.sendMetadata(effectsMetadata(ctx.effects));
  callback(null, reply);
}

function unaryHandler(deps: Deps, op: AnyOperation, route: string, clientIp: ClientIp, codecFor: CodecFor) {
  return (call: UnaryCall, callback: sendUnaryData<Buffer>) => {
    void serveUnary(deps, op, route, clientIp, codecFor, call, callback);
  };
}

export function createGrpcServer(deps: Deps, registry: Registry): Server {
  const codecFor = lazyCodecs(registry);
  const server = new Server();
  const clientIp = clientIpResolver(deps.config.trustedProxies);
  for (const service of GRPC_SERVICES) {
    const ops = registry.all.filter((op) => op.grpcMethod !== undefined && op.grpcService === service);
    // grpc-js refuses an empty service; its methods would be UNIMPLEMENTED either way.
    if (ops.length === 0) continue;
    const definition: Record<string, MethodDefinition<object, object>> = {};
    const implementation: Record<string, UntypedHandleCall> = {};
    for (const op of ops) {
      const route = `/${PROTO_PACKAGE}.${service}/${op.grpcMethod!}`;
      definition[op.grpcMethod!] = rawMethod(route, op.grpcMethod!) as MethodDefinition<object, object>;
      implementation[op.grpcMethod!] = unaryHandler(deps, op, route, clientIp, codecFor);
    }
    server.addService(definition, implementation);
  }
  return server;
}
