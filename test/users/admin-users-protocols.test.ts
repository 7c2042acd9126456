/**
 * The admin user operations answer alike over REST, GraphQL and gRPC with nested input (pagination) and a
 * Map field (app_data), which the registry-wide parity test, calling with empty inputs, does not reach.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { threeProtocols } from '../support/three-protocols.ts';
import { createUser } from '../../server/modules/users/index.ts';
import { steppingClock } from './support.ts';

describe('admin user operations across protocols', () => {
  let server: TestServer;
  const { overAll, close } = threeProtocols(() => server);
  const ids: string[] = [];

  before(async () => {
    // A still clock: the three protocols apply the same update, so updated_at must not tick between them.
    server = await startServer([], { clock: { now: () => new Date(Date.UTC(2026, 1, 1)) } });
    const clock = steppingClock();
    for (const [email, familyName] of [['a@x.example', 'Smith'], ['b@x.example', 'SMITHSON'], ['c@x.example', 'Jones']]) {
      ids.push((await createUser(server.app.deps.storage.fork(), clock, { email, familyName, signupMethods: ['basic_auth'], roles: ['user'] })).id);
    }
  });
  after(async () => {
    close();
    await server?.close();
  });

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
