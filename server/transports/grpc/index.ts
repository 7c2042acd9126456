/**
 * gRPC transport (specification "Wire protocols": native gRPC on --grpc-port, separate public and admin
 * services). The service definitions come from the generated proto text, so the contract served is exactly
 * the checked-in proto/portcullis/v1/portcullis.proto. Each rpc builds an OpContext, runs invoke(), and
 * answers with the result or with the gRPC status of the AppError kind. Operations marked `grpc: false`
 * have no rpc, and grpc-js answers UNIMPLEMENTED for them like for any unknown method.
 */
import { Metadata, Server, type ServerUnaryCall, type ServiceDefinition, type sendUnaryData, type UntypedHandleCall } from '@grpc/grpc-js';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';
import type { AnyOperation } from '../../ops/define.ts';
import { invoke } from '../../ops/invoke.ts';
import { toAppError, type AppError } from '../../kernel/errors.ts';
import { limitBucketOf } from '../../kernel/limits.ts';
import { GRPC_SERVICES, PROTO_PACKAGE, generateProto } from './generate-proto.ts';
import { loadPackageDefinition } from './load-definition.ts';
import { buildGrpcContext, clientIpResolver, effectsMetadata, type ClientIp } from './call-context.ts';
import { fromWire, refusingUndecodable, statusDetails, toWire } from './wire.ts';
import { GRPC_STATUS_BY_KIND } from './status.ts';
import { clientKey } from '../../modules/limits/index.ts';

type UnaryCall = ServerUnaryCall<unknown, unknown>;

/** `retry-after` trailing metadata (seconds, as HTTP's Retry-After) for a refusal that names when to retry. */
function trailersFor(error: AppError): Metadata | undefined {
  if (error.retryAfterSeconds === undefined) return undefined;
  const trailers = new Metadata();
  trailers.set('retry-after', String(error.retryAfterSeconds));
  return trailers;
}

async function serveUnary(deps: Deps, op: AnyOperation, route: string, clientIp: ClientIp, call: UnaryCall, callback: sendUnaryData<unknown>): Promise<void> {
  const ctx = buildGrpcContext(deps, call, clientIp);
  let reply: unknown;
  try {
    // The per-IP limit of every method (specification part 1), before any work, as on HTTP.
    await deps.limits.consume('ip', clientKey(ctx.req.ip));
    reply = toWire(op.output, await invoke(op, ctx, fromWire(op.input, call.request)));
  } catch (err) {
    const appError = toAppError(err, ctx.req.requestId);
    if (appError !== err) ctx.log.error({ err, op: op.name }, 'gRPC call failed outside the operation pipeline');
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

function unaryHandler(deps: Deps, op: AnyOperation, route: string, clientIp: ClientIp) {
  return (call: UnaryCall, callback: sendUnaryData<unknown>) => {
    void serveUnary(deps, op, route, clientIp, call, callback);
  };
}

export function createGrpcServer(deps: Deps, registry: Registry): Server {
  const definition = loadPackageDefinition(generateProto(registry));
  const server = new Server();
  const clientIp = clientIpResolver(deps.config.trustedProxies);
  for (const service of GRPC_SERVICES) {
    const ops = registry.all.filter((op) => op.grpcMethod !== undefined && op.grpcService === service);
    // grpc-js refuses an empty service; its methods would be UNIMPLEMENTED either way.
    if (ops.length === 0) continue;
    const implementation: Record<string, UntypedHandleCall> = {};
    for (const op of ops) {
      const route = `/${PROTO_PACKAGE}.${service}/${op.grpcMethod!}`;
      implementation[op.grpcMethod!] = unaryHandler(deps, op, route, clientIp);
    }
    server.addService(refusingUndecodable(definition[`${PROTO_PACKAGE}.${service}`] as ServiceDefinition), implementation);
  }
  return server;
}
