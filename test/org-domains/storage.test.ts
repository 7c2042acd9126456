/**
 * Org domains on PostgreSQL and MariaDB (SQLite runs in the other suites): the round trip, and the unique
 * index on verified_domain that keeps one verified owner per domain even when the service's check is
 * bypassed, while many pending claims (verified_domain NULL) for one domain coexist.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { OrgDomain, verifiedOrganizationForDomain } from '../../server/modules/org-domains/index.ts';
import { isUniqueViolation } from '../../server/storage/errors.ts';

for (const kind of ['postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`org domain storage on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let grpc: GrpcTestClient;
    let dns: TestDnsServer;
    const callers = orgCallers(() => server, () => grpc);
    before(async () => {
      db = await createTestDatabase(kind);
      dns = await startDnsServer();
      server = await startServer([...db.flags, '--dns-servers', dns.address]);
      grpc = createGrpcClient(server.ports.grpc!);
    });
    after(async () => {
      grpc?.close();
      await server?.close();
      await dns?.close();
      await db?.cleanup();
    });

    test('pending claims of several organizations coexist; verification round-trips; deleting the organization removes its domains', async () => {
      const a = (await callers.over('rest', 'create_organization', { name: 'store-a' })).id;
      const b = (await callers.over('rest', 'create_organization', { name: 'store-b' })).id;
      const challenge = await callers.over('rest', 'request_org_domain', { org_id: a, domain: 'Stored.Example' });
      await callers.over('rest', 'request_org_domain', { org_id: b, domain: 'stored.example' });
      dns.setTxt(challenge.record_name, [challenge.record_value]);
      const verified = await callers.over('grpc', 'verify_org_domain', { org_id: a, domain: 'stored.example' });
      assert.equal(verified.state, 'verified');
      const [listed] = (await callers.over('graphql', 'org_domains', { org_id: a })).domains;
      assert.deepEqual(listed, verified);
      assert.equal((await verifiedOrganizationForDomain(server.app.deps.storage.fork(), 'STORED.example'))?.id, a);
      const clash = await callers.call('rest', 'add_verified_org_domain', { org_id: b, domain: 'stored.example' });
      assert.equal('error' in clash && clash.error, 'already_exists');
      await callers.over('rest', 'delete_organization', { id: a });
      assert.equal(await server.app.deps.storage.fork().count(OrgDomain, { orgId: a }), 0);
      assert.equal(await verifiedOrganizationForDomain(server.app.deps.storage.fork(), 'stored.example'), null);
    });

    test('the database refuses a second verified owner of one domain by itself', async () => {
      const now = new Date();
      const row = (orgId: string, verified: boolean) => ({
        id: randomUUID(), orgId, domain: 'only-one.example', state: verified ? 'verified' : 'pending', token: randomUUID(),
        verifiedDomain: verified ? 'only-one.example' : null, verifiedAt: verified ? now : null, createdAt: now, updatedAt: now,
      });
      const em = server.app.deps.storage.fork();
      em.create(OrgDomain, row(randomUUID(), true));
      em.create(OrgDomain, row(randomUUID(), false));
      em.create(OrgDomain, row(randomUUID(), false));
      await em.flush();
      const second = server.app.deps.storage.fork();
      second.create(OrgDomain, row(randomUUID(), true));
      await assert.rejects(second.flush(), (err) => isUniqueViolation(err));
    });
  });
}
