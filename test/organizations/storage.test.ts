/** Organizations and members on PostgreSQL and MariaDB (SQLite runs in the other suites): round trip and the unique name. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';

for (const kind of ['postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`organization storage on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let grpc: GrpcTestClient;
    const callers = orgCallers(() => server, () => grpc);
    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer(db.flags);
      grpc = createGrpcClient(server.ports.grpc!);
    });
    after(async () => {
      grpc?.close();
      await server?.close();
      await db?.cleanup();
    });

    test('an organization with a member and roles round-trips; the name stays unique', async () => {
      const { orgId, admin } = await callers.orgWithAdmin('ünïcode-free-slug'.replace(/[^a-z-]/g, ''));
      const members = await callers.over('rest', 'org_members', { org_id: orgId });
      assert.deepEqual(members.members.map((m: any) => [m.user_id, m.roles]), [[admin.userId, ['service:org_admin']]]);
      const org = await callers.over('rest', 'organization', { id: orgId });
      const clash = await callers.call('rest', 'create_organization', { name: org.name });
      assert.equal('error' in clash && clash.error, 'already_exists');
      await callers.over('rest', 'delete_organization', { id: orgId });
      assert.deepEqual((await callers.over('rest', 'user_organizations', { user_id: admin.userId })).organizations, []);
    });
  });
}
