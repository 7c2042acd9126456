/**
 * The parity test (specification part 1 "Wire protocols"; architecture.md "One operation, three protocols"):
 * walks the operation registry and calls every operation over REST, GraphQL and gRPC, anonymously and as
 * super-admin, with the same input. Each protocol must give the same result, or the same error kind; an
 * operation a protocol does not carry must answer that protocol's clear refusal (specification part 4.2).
 * New operations are covered by being in the registry.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { status as grpcStatus } from '@grpc/grpc-js';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcFailure, type GrpcTestClient } from '../support/grpc-client.ts';
import { registry } from '../../server/ops/registry.ts';
import type { AnyOperation } from '../../server/ops/define.ts';
import { HTTP_ERROR_MAP, KIND_BY_GRAPHQL_CODE, type ErrorKind } from '../../server/kernel/errors.ts';
import { GRPC_STATUS_BY_KIND } from '../../server/transports/grpc/status.ts';
import { buildGraphqlSchema, graphqlRequestFor } from '../../server/transports/graphql/index.ts';
import { dropNulls } from '../../server/ops/validate.ts';

type Outcome = { ok: unknown } | { error: ErrorKind };

const KIND_BY_REST_CODE = Object.fromEntries(Object.entries(HTTP_ERROR_MAP).map(([kind, { code }]) => [code, kind])) as Record<string, ErrorKind>;
// UNIMPLEMENTED stands for both protocol refusals; they compare as one kind.
const KIND_BY_GRPC_STATUS = Object.fromEntries(
  (Object.entries(GRPC_STATUS_BY_KIND) as [ErrorKind, number][]).reverse().map(([kind, code]) => [code, kind]),
) as Record<number, ErrorKind>;

const graphqlSchema = buildGraphqlSchema(registry.all);
const credentialsFor = { anonymous: {}, admin: { 'x-service-admin-secret': ADMIN_SECRET } } as const;
type Scenario = keyof typeof credentialsFor;

/**
 * An outcome as compared across protocols. A WebAuthn ceremony's options carry a fresh random challenge at
 * every call (W3C WebAuthn section 13.4.3), so that one field is compared by its shape only.
 */
function comparable(outcome: Outcome): Outcome {
  if (!('ok' in outcome)) return outcome;
  const options = (outcome.ok as { options?: unknown } | undefined)?.options;
  if (typeof options !== 'string') return outcome;
  const parsed = JSON.parse(options) as { challenge?: unknown };
  assert.match(String(parsed.challenge), /^[A-Za-z0-9_-]{43,}$/, 'a ceremony challenge of at least 32 random bytes');
  return { ok: { ...(outcome.ok as object), options: { ...parsed, challenge: '<random>' } } };
}

/** The smallest input the schema accepts: required fields at their zero values, optional ones left out. */
function sampleInput(op: AnyOperation): Record<string, unknown> {
  return Value.Create(op.input) as Record<string, unknown>;
}

describe('protocol parity over the whole registry', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer();
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc.close();
    await server.close();
  });

  async function overRest(op: AnyOperation, input: Record<string, unknown>, scenario: Scenario): Promise<Outcome> {
    const route = op.restRoute ?? { method: 'POST', path: op.admin ? `/v1/admin/${op.name}` : `/v1/${op.name}` };
    const headers: Record<string, string> = { ...credentialsFor[scenario], origin: server.baseUrl };
    const res =
      route.method === 'GET'
        ? await fetch(`${server.baseUrl}${route.path}?${new URLSearchParams(input as Record<string, string>)}`, { headers })
        : await fetch(server.baseUrl + route.path, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(input),
          });
    const body = await res.json();
    if (res.status === 200) return { ok: body };
    assert.equal(res.status, HTTP_ERROR_MAP[KIND_BY_REST_CODE[body.code]!].status, `REST status of ${op.name}`);
    return { error: KIND_BY_REST_CODE[body.code]! };
  }

  async function overGraphql(op: AnyOperation, input: Record<string, unknown>, scenario: Scenario): Promise<Outcome> {
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { ...credentialsFor[scenario], origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify(graphqlRequestFor(graphqlSchema, op, input)),
    });
    const body = await res.json();
    if (body.errors?.length) return { error: KIND_BY_GRAPHQL_CODE[body.errors[0].extensions?.code]! };
    return { ok: dropNulls(body.data[op.graphqlName]) };
  }

  async function overGrpc(op: AnyOperation, input: Record<string, unknown>, scenario: Scenario): Promise<Outcome> {
    const method = op.grpcMethod ?? op.name;
    try {
      const { response } = await grpc.call(op.grpcService, method, input, credentialsFor[scenario]);
      return { ok: dropNulls(response) };
    } catch (err) {
      const code = (err as GrpcFailure).code;
      return { error: KIND_BY_GRPC_STATUS[code]! };
    }
  }

  for (const op of registry.all) {
    const required = (op.input.required ?? []).length > 0;
    if (required && op.restRoute && op.grpcMethod) {
      test(`${op.name} without its required fields is invalid_argument over REST, GraphQL and gRPC`, async () => {
        const outcomes = await Promise.all([overRest(op, {}, 'admin'), overGraphql(op, {}, 'admin'), overGrpc(op, {}, 'admin')]);
        assert.deepEqual(outcomes, [{ error: 'invalid_argument' }, { error: 'invalid_argument' }, { error: 'invalid_argument' }]);
      });
    }
    for (const scenario of ['anonymous', 'admin'] as const) {
      test(`${op.name} (${scenario}) answers alike over REST, GraphQL and gRPC`, async () => {
        const input = sampleInput(op);
        const graphql = comparable(await overGraphql(op, input, scenario));
        const rest = comparable(await overRest(op, input, scenario));
        const grpcOutcome = comparable(await overGrpc(op, input, scenario));
        if (op.restRoute) assert.deepEqual(rest, graphql, `REST and GraphQL differ for ${op.name}`);
        else assert.deepEqual(rest, { error: 'unimplemented' }, `REST must refuse ${op.name} clearly`);
        if (op.grpcMethod) assert.deepEqual(grpcOutcome, graphql, `gRPC and GraphQL differ for ${op.name}`);
        else assert.deepEqual(grpcOutcome, { error: KIND_BY_GRPC_STATUS[grpcStatus.UNIMPLEMENTED] }, `gRPC must refuse ${op.name}`);
        // Admin operations must never succeed anonymously, whatever the protocol (admin_login is the door).
        if (op.admin && op.auth === 'admin' && scenario === 'anonymous') {
          assert.deepEqual(graphql, { error: 'unauthenticated' }, `${op.name} must refuse anonymous callers`);
        }
      });
    }
  }

  test('the registry is walked whole (every operation reachable in at least GraphQL)', () => {
    const fields = { ...graphqlSchema.getQueryType()?.getFields(), ...graphqlSchema.getMutationType()?.getFields() };
    for (const op of registry.all) assert.ok(fields[op.graphqlName], `GraphQL lacks ${op.graphqlName}`);
  });
});
