/**
 * The parity test (docs/api-overview.md#three-protocols-one-registry, "Wire protocols"; docs/architecture.md#one-operation-three-protocols):
 * walks the operation registry and calls every operation over REST, GraphQL and gRPC, anonymously and as
 * super-admin, with the same input. Each protocol must give the same result, or the same error kind; an
 * operation a protocol does not carry must answer that protocol's clear refusal (docs/operations.md).
 * New operations are covered by being in the registry.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { status as grpcStatus } from '@grpc/grpc-js';
import { startServer, type TestServer } from '../support/app.ts';
import { KIND_BY_GRPC_STATUS, threeProtocols, type Kind, type Protocol } from '../support/three-protocols.ts';
import { registry } from '../../server/ops/registry.ts';
import type { AnyOperation } from '../../server/ops/define.ts';
import { buildGraphqlSchema } from '../../server/transports/graphql/index.ts';

type Outcome = { ok: unknown } | { error: Kind };
type Scenario = 'anonymous' | 'admin';

const graphqlSchema = buildGraphqlSchema(registry.all);

/**
 * An outcome as compared across protocols. A WebAuthn ceremony's options carry a fresh random challenge at
 * every call (W3C WebAuthn section 13.4.3), so that one field is compared by its shape only.
 */
function comparable(outcome: Outcome, op: AnyOperation): Outcome {
  if (!('ok' in outcome)) return outcome;
  if (op.name === 'create_initial_access_token') return comparableInitialAccessToken(outcome.ok);
  const options = (outcome.ok as { options?: unknown } | undefined)?.options;
  if (typeof options !== 'string') return outcome;
  const parsed = JSON.parse(options) as { challenge?: unknown };
  assert.match(String(parsed.challenge), /^[A-Za-z0-9_-]{43,}$/, 'a ceremony challenge of at least 32 random bytes');
  return { ok: { ...(outcome.ok as object), options: { ...parsed, challenge: '<random>' } } };
}

/**
 * create_initial_access_token needs no input, so it succeeds over each protocol and mints a token of its own
 * each time (RFC 7591 section 3: an initial access token is a fresh secret): its token and id are compared by
 * their shape, its times by being the same distance apart.
 */
function comparableInitialAccessToken(ok: unknown): Outcome {
  const answer = ok as { token: string; initial_access_token: { id: string; created_at: number; expires_at: number | null } };
  assert.match(answer.token, /^[A-Za-z0-9_-]{43,}$/, 'an initial access token of at least 32 random bytes');
  const { id, created_at, expires_at, ...rest } = answer.initial_access_token;
  assert.match(id, /^[0-9a-f-]{36}$/);
  return { ok: { token: '<random>', initial_access_token: { ...rest, id: '<uuid>', lifetime: expires_at === null ? null : expires_at - created_at } } };
}

/** The smallest input the schema accepts: required fields at their zero values, optional ones left out. */
function sampleInput(op: AnyOperation): Record<string, unknown> {
  return Value.Create(op.input) as Record<string, unknown>;
}

describe('protocol parity over the whole registry', () => {
  let server: TestServer;
  const callers = threeProtocols(() => server);
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    callers.close();
    await server.close();
  });

  /**
   * The outcome compared across protocols: the body or the error kind. An operation a protocol does not carry
   * is still sent, to its route or method by name, so that the refusal is seen; a REST status must be its
   * code's (three-protocols.ts asserts it).
   */
  async function over(protocol: Protocol, op: AnyOperation, input: Record<string, unknown>, scenario: Scenario): Promise<Outcome> {
    const reply = await callers.send(protocol, op, input, scenario);
    return reply.ok ? { ok: reply.body } : { error: reply.kind! };
  }
  const overRest = (op: AnyOperation, input: Record<string, unknown>, scenario: Scenario) => over('rest', op, input, scenario);
  const overGraphql = (op: AnyOperation, input: Record<string, unknown>, scenario: Scenario) => over('graphql', op, input, scenario);
  const overGrpc = (op: AnyOperation, input: Record<string, unknown>, scenario: Scenario) => over('grpc', op, input, scenario);

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
        const graphql = comparable(await overGraphql(op, input, scenario), op);
        const rest = comparable(await overRest(op, input, scenario), op);
        const grpcOutcome = comparable(await overGrpc(op, input, scenario), op);
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
