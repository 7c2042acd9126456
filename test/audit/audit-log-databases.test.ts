/**
 * The audit log (docs/api-overview.md#resources-and-fields, "AuditLog", docs/operations.md#audit_logs) on every database kind:
 * entries for admin mutations over REST and GraphQL (not for refused ones), for login success and failure
 * with the client IP per --trusted-proxies (docs/configuration.md) and the user agent; metadata names fields,
 * never a secret (a password-like app_data value, a rotated client secret, a typed password); the filters,
 * the inclusive Unix-second bounds, newest-first paging, and admin-only access.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../support/admin-client.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { restClient } from '../support/rest-client.ts';
import { adminProtocols } from '../support/admin-protocols.ts';
import { TestClock } from '../support/test-clock.ts';
import type { GrpcTestClient } from '../support/grpc-client.ts';

const PASSWORD = 'Correct-Horse-9-battery';
const FORWARDED = { 'x-forwarded-for': '203.0.113.7', 'user-agent': 'audit-test/1.0' };

for (const kind of testDatabaseKinds()) {
  describe(`audit log on ${kind}`, () => {
    const clock = new TestClock();
    let db: TestDatabase;
    let server: TestServer;
    const admin = (op: string, body: Record<string, unknown>) => restClient(server).post(`/v1/admin/${op}`, body, ADMIN);
    const logs = async (filters: Record<string, unknown> = {}) => {
      const res = await admin('audit_logs', { pagination: { limit: 100 }, ...filters });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.audit_logs as Array<Record<string, any>>;
    };
    const { over } = adminProtocols(() => server, () => undefined as unknown as GrpcTestClient);
    let userId = '';
    const email = `audited-${kind}@example.com`;

    before(async () => {
      db = await createTestDatabase(kind);
      // Loopback is the trusted proxy here, so X-Forwarded-For names the client.
      server = await startServer([...db.flags, '--trusted-proxies', '127.0.0.1/8,::1/128'], { clock });
      userId = (await signedUpUser(server, { email, password: PASSWORD })).userId;
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('login success and failure, with the forwarded client IP and the user agent', async () => {
      clock.advance(100);
      assert.equal((await restClient(server).post('/v1/login', { email, password: PASSWORD }, FORWARDED)).status, 200);
      assert.equal((await restClient(server).post('/v1/login', { email, password: 'wrong-Password-1' }, FORWARDED)).status, 401);
      assert.equal((await restClient(server).post('/v1/login', { email: 'nobody@example.com', password: 'typed-Secret-2' }, FORWARDED)).status, 401);

      const [unknown, wrong, success] = await logs({ resource_type: 'user', action: 'user.login_failed' }).then(async (failed) => [...failed, (await logs({ action: 'user.login', actor_id: userId }))[0]!]);
      assert.equal(success!.actor_type, 'user');
      assert.equal(success!.actor_email, email);
      assert.equal(success!.resource_id, userId);
      assert.equal(success!.ip_address, '203.0.113.7');
      assert.equal(success!.user_agent, 'audit-test/1.0');
      assert.deepEqual(JSON.parse(success!.metadata), { login_method: 'basic_auth' });
      assert.equal(wrong!.actor_id, userId);
      assert.equal(JSON.parse(wrong!.metadata).reason, 'wrong_password');
      assert.equal(wrong!.ip_address, '203.0.113.7');
      assert.equal(unknown!.actor_type, 'anonymous');
      assert.equal(unknown!.actor_email, '', 'what was typed for an unknown account is not recorded');
      assert.equal(JSON.parse(unknown!.metadata).reason, 'unknown_account');
    });

    test('admin mutations over REST and GraphQL are recorded, refused ones and reads are not, and no secret is', async () => {
      clock.advance(100);
      const created = await admin('create_client', { name: 'audited client' });
      const clientId = created.body.client.id;
      const rotated = await admin('rotate_client_secret', { id: clientId });
      await over('graphql', 'update_client', { id: clientId, name: 'renamed' });
      await over('graphql', 'update_user', { id: userId, given_name: 'Audrey', app_data: { password: 'hunter2-app-secret' } });
      assert.equal((await admin('delete_client', { id: 'no-such-client' })).status, 404);
      await admin('clients', {});

      const entries = await logs();
      const actions = entries.map((e) => e.action);
      for (const action of ['admin.create_client', 'admin.rotate_client_secret', 'admin.update_client', 'admin.update_user']) {
        assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
      }
      assert.ok(!actions.includes('admin.delete_client'), 'a refused mutation rolls its entry back');
      assert.ok(!actions.some((a) => a === 'admin.clients' || a === 'admin.audit_logs'), 'reads are not audited');

      const update = entries.find((e) => e.action === 'admin.update_user')!;
      assert.equal(update.actor_type, 'super_admin');
      assert.equal(update.resource_type, 'user');
      assert.equal(update.resource_id, userId);
      assert.deepEqual(JSON.parse(update.metadata), { fields: ['app_data', 'given_name'] });
      const create = entries.find((e) => e.action === 'admin.create_client')!;
      assert.equal(create.resource_type, 'client');
      assert.equal(create.resource_id, clientId);

      const everything = JSON.stringify(entries);
      for (const secret of [created.body.client_secret, rotated.body.client_secret, 'hunter2-app-secret', PASSWORD, 'wrong-Password-1', 'typed-Secret-2', 'nobody@example.com']) {
        assert.ok(!everything.includes(secret), `no entry holds ${secret}`);
      }
    });

    test('filters, inclusive Unix-second bounds and newest-first pages', async () => {
      clock.advance(100);
      const first = await admin('create_client', { name: 'first' });
      clock.advance(10);
      await admin('update_client', { id: first.body.client.id, name: 'second' });
      const [updated, created] = await logs({ resource_type: 'client', resource_id: first.body.client.id });
      assert.equal(updated!.action, 'admin.update_client');
      assert.equal(created!.action, 'admin.create_client');
      // TestClock is real time plus an offset: the ten seconds may straddle one more second boundary.
      assert.ok([10, 11].includes(updated!.created_at - created!.created_at));

      const at = (from: number, to: number) => logs({ resource_id: first.body.client.id, from_timestamp: from, to_timestamp: to }).then((rows) => rows.map((r) => r.action));
      assert.deepEqual(await at(created!.created_at, created!.created_at), ['admin.create_client'], 'both bounds inclusive');
      assert.deepEqual(await at(updated!.created_at, updated!.created_at + 100), ['admin.update_client']);
      assert.deepEqual(await at(created!.created_at + 1, updated!.created_at - 1), []);
      assert.equal((await admin('audit_logs', { from_timestamp: 20, to_timestamp: 10 })).body.code, 'invalid_argument');

      const byActor = await logs({ actor_id: userId });
      assert.ok(byActor.length > 0 && byActor.every((e) => e.actor_id === userId));
      const byAction = await logs({ action: 'admin.create_client' });
      assert.ok(byAction.length >= 2 && byAction.every((e) => e.action === 'admin.create_client'));

      const all = await logs();
      const page1 = (await admin('audit_logs', { pagination: { limit: 2, page: 1 } })).body;
      const page2 = (await admin('audit_logs', { pagination: { limit: 2, page: 2 } })).body;
      assert.equal(page1.pagination.total, all.length);
      const lastNumber = Math.ceil(all.length / 2);
      const last = (await admin('audit_logs', { pagination: { limit: 2, page: lastNumber } })).body;
      assert.equal(last.pagination.total, all.length, 'the last page, full or short, counts every entry');
      assert.deepEqual(last.audit_logs.map((e: any) => e.id), all.slice((lastNumber - 1) * 2).map((e) => e.id));
      const beyond = (await admin('audit_logs', { pagination: { limit: 2, page: lastNumber + 3 } })).body;
      assert.deepEqual([beyond.audit_logs, beyond.pagination.total], [[], all.length], 'a page past the end still counts');
      assert.deepEqual([...page1.audit_logs, ...page2.audit_logs].map((e: any) => e.id), all.slice(0, 4).map((e) => e.id));
      for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.created_at >= all[i]!.created_at, 'newest first');

      assert.equal((await restClient(server).post('/v1/admin/audit_logs', {})).status, 401);
    });
  });
}

describe('audit log client IP without a trusted proxy', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--trusted-proxies', '10.0.0.0/8']);
  });
  after(async () => server?.close());

  test('X-Forwarded-For from a peer that is not a trusted proxy is ignored', async () => {
    await restClient(server).post('/v1/login', { email: 'ghost@example.com', password: 'whatever-1A' }, FORWARDED);
    const res = await restClient(server).post('/v1/admin/audit_logs', { action: 'user.login_failed' }, ADMIN);
    const [entry] = res.body.audit_logs;
    assert.match(entry.ip_address, /^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });
});
