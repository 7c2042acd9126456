/** gRPC transport (placeholder until the gRPC adapter lands). */
import { Server } from '@grpc/grpc-js';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';

export function createGrpcServer(_deps: Deps, _registry: Registry): Server {
  return new Server();
}
