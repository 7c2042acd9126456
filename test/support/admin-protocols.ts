/**
 * One admin operation called over REST, GraphQL or gRPC with the admin secret, for tests that check the
 * three protocols behave alike (specification part 1 "Wire protocols"): `call` answers the outcome with
 * the error kind in one vocabulary, `over` asserts success and answers the body (nulls dropped, as gRPC
 * omits them).
 */
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_SECRET, startServer, type TestServer } from './app.ts';
import { createGrpcClient, type GrpcFailure, type GrpcTestClient } from './grpc-client.ts';
import { registry } from '../../server/ops/registry.ts';
import { buildGraphqlSchema, graphqlRequestFor } from '../../server/transports/graphql/index.ts';
import { dropNulls } from '../../server/ops/validate.ts';

export type Protocol = 'rest' | 'graphql' | 'grpc';
export type Outcome = { ok: any } | { error: string; message: string };

const ADMIN = { 'x-service-admin-secret': ADMIN_SECRET };
// gRPC status codes (https://grpc.github.io/grpc/core/md_doc_statuscodes.html).
const GRPC_KIND: Record<number, string> = { 3: 'invalid_argument', 5: 'not_found', 6: 'already_exists' };
const HTTP_KIND: Record<number, string> = { 400: 'invalid_argument', 404: 'not_found', 409: 'already_exists' };
let graphqlSchema: ReturnType<typeof buildGraphqlSchema> | undefined;

export function adminProtocols(server: () => TestServer, grpc: () => GrpcTestClient) {
  async function call(protocol: Protocol, name: string, input: Record<string, unknown>): Promise<Outcome> {
    const op = registry.byName(name)!;
    const base = server().baseUrl;
    if (protocol === 'rest') {
      const res = await fetch(`${base}${op.restRoute!.path}`, {
        method: 'POST',
        headers: { ...ADMIN, origin: base, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      const body = await res.json();
      if (res.status === 200) return { ok: body };
      return { error: HTTP_KIND[res.status] ?? `http ${res.status}`, message: body.error ?? body.message ?? JSON.stringify(body) };
    }
    if (protocol === 'graphql') {
      graphqlSchema ??= buildGraphqlSchema(registry.all);
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { ...ADMIN, origin: base, 'content-type': 'application/json' },
        body: JSON.stringify(graphqlRequestFor(graphqlSchema, op, input)),
      });
      const body = await res.json();
      if (!body.errors) return { ok: dropNulls(body.data[op.graphqlName]) };
      const error = body.errors[0];
      return { error: String(error.extensions?.code ?? '').toLowerCase(), message: error.message };
    }
    try {
      const { response } = await grpc().call(op.grpcService, op.grpcMethod!, input, ADMIN);
      return { ok: dropNulls(response) };
    } catch (err) {
      const failure = err as GrpcFailure;
      return { error: GRPC_KIND[failure.code] ?? `grpc ${failure.code}`, message: failure.details };
    }
  }

  async function over(protocol: Protocol, name: string, input: Record<string, unknown>): Promise<any> {
    const outcome = await call(protocol, name, input);
    assert.ok('ok' in outcome, `${protocol} ${name}: ${JSON.stringify(outcome)}`);
    return outcome.ok;
  }

  return { call, over };
}

/**
 * A server with a gRPC client for the suite it is called in (its own before and after hooks), and the
 * admin caller over it. `server()` is valid inside tests.
 */
export function adminProtocolsOnServer(flags: string[] = [], options: Parameters<typeof startServer>[1] = {}) {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer(flags, options);
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });
  return { ...adminProtocols(() => server, () => grpc), server: () => server };
}
