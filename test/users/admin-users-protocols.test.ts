/**
 * The admin user operations answer alike over REST, GraphQL and gRPC with nested input (pagination) and a
 * Map field (app_data), which the registry-wide parity test, calling with empty inputs, does not reach.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { registry } from '../../server/ops/registry.ts';
import { buildGraphqlSchema, graphqlRequestFor } from '../../server/transports/graphql/index.ts';
import { dropNulls } from '../../server/ops/validate.ts';
import { createUser } from '../../server/modules/users/index.ts';
import { steppingClock } from './support.ts';

const ADMIN = { 'x-service-admin-secret': ADMIN_SECRET };
const graphqlSchema = buildGraphqlSchema(registry.all);

describe('admin user operations across protocols', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  const ids: string[] = [];

  before(async () => {
    // A still clock: the three protocols apply the same update, so updated_at must not tick between them.
    server = await startServer([], { clock: { now: () => new Date(Date.UTC(2026, 1, 1)) } });
    grpc = createGrpcClient(server.ports.grpc!);
    const clock = steppingClock();
    for (const [email, familyName] of [['a@x.example', 'Smith'], ['b@x.example', 'SMITHSON'], ['c@x.example', 'Jones']]) {
      ids.push((await createUser(server.app.deps.storage.fork(), clock, { email, familyName, signupMethods: ['basic_auth'], roles: ['user'] })).id);
    }
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  async function overAll(name: string, input: Record<string, unknown>): Promise<unknown> {
    const op = registry.byName(name)!;
    const rest = await fetch(`${server.baseUrl}${op.restRoute!.path}`, {
      method: 'POST',
      headers: { ...ADMIN, origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    assert.equal(rest.status, 200);
    const restBody = await rest.json();
    const gql = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { ...ADMIN, origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify(graphqlRequestFor(graphqlSchema, op, input)),
    });
    const gqlBody = await gql.json();
    assert.equal(gqlBody.errors, undefined, JSON.stringify(gqlBody.errors));
    const { response } = await grpc.call(op.grpcService, op.grpcMethod!, input, ADMIN);
    assert.deepEqual(dropNulls(gqlBody.data[op.graphqlName]), restBody, `GraphQL and REST differ for ${name}`);
    assert.deepEqual(dropNulls(response), restBody, `gRPC and REST differ for ${name}`);
    return restBody;
  }

  test('users with a query and a page', async () => {
    const body = (await overAll('users', { query: 'smith', pagination: { limit: 1, page: 2 } })) as any;
    assert.deepEqual(body.pagination, { limit: 1, page: 2, offset: 1, total: 2 });
    assert.deepEqual(body.users.map((u: any) => u.id), [ids[0]]);
  });

  test('user by email, and update_user with app_data', async () => {
    assert.equal(((await overAll('user', { email: 'C@X.example' })) as any).id, ids[2]);
    const body = (await overAll('update_user', { id: ids[2], nickname: 'cj', app_data: { tier: 'gold', n: 2, tags: ['a'] } })) as any;
    assert.deepEqual(body.app_data, { tier: 'gold', n: 2, tags: ['a'] });
    assert.equal(body.nickname, 'cj');
  });
});
