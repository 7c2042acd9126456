/**
 * One admin operation called over REST, GraphQL or gRPC with the admin secret, for tests that check the
 * three protocols behave alike (docs/api-overview.md#three-protocols-one-registry, "Wire protocols"): `call` answers the outcome with
 * the error kind in one vocabulary, `over` asserts success and answers the body (nulls dropped, as gRPC
 * omits them).
 */
import type { startServer, TestServer } from './app.ts';
import type { GrpcTestClient } from './grpc-client.ts';
import { orgCallers, orgCallersOnServer, type Outcome, type Protocol } from './org-callers.ts';

export type { Protocol, Outcome } from './org-callers.ts';

function asAdmin(callers: Pick<ReturnType<typeof orgCallers>, 'call' | 'over' | 'overAll'>) {
  return {
    call: (protocol: Protocol, name: string, input: Record<string, unknown>): Promise<Outcome> => callers.call(protocol, name, input, 'admin'),
    over: (protocol: Protocol, name: string, input: Record<string, unknown>): Promise<any> => callers.over(protocol, name, input, 'admin'),
    /** The same call over the three protocols: each must succeed with the same body, which it answers. */
    overAll: (name: string, input: Record<string, unknown>): Promise<any> => callers.overAll(name, input, 'admin'),
  };
}

export function adminProtocols(server: () => TestServer, grpc: () => GrpcTestClient) {
  return asAdmin(orgCallers(server, grpc));
}

/**
 * A server with a gRPC client for the suite it is called in (its own before and after hooks), and the
 * admin caller over it. `server()` is valid inside tests.
 */
export function adminProtocolsOnServer(flags: string[] = [], options: Parameters<typeof startServer>[1] = {}) {
  const on = orgCallersOnServer(flags, options);
  return { ...asAdmin(on), server: on.server };
}
