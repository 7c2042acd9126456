/**
 * `_verification_requests` (docs/operations.md) over REST with the admin header, GraphQL and gRPC:
 * pending requests newest first, pagination per docs/api-overview.md#resources-and-fields, and never a token.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as admin } from '../support/admin-client.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { consumeVerification, createVerification } from '../../server/modules/verification/index.ts';
import { TestClock } from './store.ts';


describe('verification_requests admin operation', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  const tokens: string[] = [];
  before(async () => {
    server = await startServer();
    grpc = createGrpcClient(server.ports.grpc!);
    const clock = new TestClock('2026-07-01T12:00:00.000Z');
    for (let i = 1; i <= 5; i++) {
      clock.advance(60);
      tokens.push(
        await createVerification(server.app.deps.storage.fork(), clock, {
          identifier: i % 2 ? 'basic_auth_signup' : 'magic_link_login',
          email: `person${i}@example.com`,
          redirectUri: i === 5 ? 'https://app.example.com/after' : undefined,
          ttlSeconds: 1800,
        }),
      );
    }
    // A used request is spent and no longer listed.
    await consumeVerification(server.app.deps.storage.fork(), clock, tokens[0]!, ['basic_auth_signup']);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  const rest = (body: unknown, headers: Record<string, string> = admin) =>
    fetch(`${server.baseUrl}/v1/admin/verification_requests`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify(body),
    });

  test('lists pending requests newest first with the default page', async () => {
    const res = await rest({});
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(body.pagination, { limit: 10, page: 1, offset: 0, total: 4 });
    assert.deepEqual(
      body.verification_requests.map((r: { email: string }) => r.email),
      ['person5@example.com', 'person4@example.com', 'person3@example.com', 'person2@example.com'],
    );
    const newest = body.verification_requests[0];
    assert.deepEqual(Object.keys(newest).sort(), ['created_at', 'email', 'expires', 'id', 'identifier', 'nonce', 'redirect_uri', 'updated_at']);
    assert.equal(newest.identifier, 'basic_auth_signup');
    assert.equal(newest.redirect_uri, 'https://app.example.com/after');
    assert.equal(newest.created_at, Date.parse('2026-07-01T12:05:00.000Z') / 1000);
    assert.equal(newest.expires, newest.created_at + 1800);
    for (const token of tokens) assert.ok(!JSON.stringify(body).includes(token), 'no token in the answer');
  });

  test('pages with limit and page', async () => {
    const body = await (await rest({ pagination: { limit: 3, page: 2 } })).json();
    assert.deepEqual(body.pagination, { limit: 3, page: 2, offset: 3, total: 4 });
    assert.deepEqual(body.verification_requests.map((r: { email: string }) => r.email), ['person2@example.com']);
    const capped = await (await rest({ pagination: { limit: 1000 } })).json();
    assert.equal(capped.pagination.limit, 100);
  });

  test('refuses callers without admin credentials', async () => {
    const res = await rest({}, {});
    assert.equal(res.status, 401);
    assert.equal((await res.json()).code, 'unauthenticated');
  });

  test('GraphQL takes the call without arguments and answers the same list', async () => {
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ query: '{ _verification_requests { verification_requests { email token identifier } pagination { total limit } } }' }),
    });
    const body = await res.json();
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const list = body.data._verification_requests;
    assert.deepEqual(list.pagination, { total: 4, limit: 10 });
    assert.equal(list.verification_requests[0].email, 'person5@example.com');
    assert.equal(list.verification_requests[0].token, null);
  });

  test('gRPC answers the same page', async () => {
    const { response } = await grpc.call('AdminService', 'VerificationRequests', { pagination: { limit: 2, page: 1 } }, admin);
    const answer = response as { verification_requests: { email: string }[]; pagination: { total: number; limit: number } };
    assert.deepEqual(answer.verification_requests.map((r) => r.email), ['person5@example.com', 'person4@example.com']);
    assert.equal(Number(answer.pagination.total), 4);
  });
});
