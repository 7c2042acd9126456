/**
 * A deleted account's SCIM records go with it (modules/scim/scim-deleted-accounts.ts): after delete_user the
 * Users list's totalResults and Resources agree (RFC 7644 section 3.4.2), filters do not find it, its groups
 * no longer list it and take a new version; records left behind by earlier versions are removed by
 * migration 0007. On SQLite, PostgreSQL and MariaDB.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { ScimGroupMember, ScimUser } from '../../server/modules/scim/index.ts';
import { ScimUserEmail } from '../../server/modules/scim/scim.entity.ts';
import { dropScimRecordsOfDeletedAccountsMigration } from '../../server/storage/migrations/0007-drop-scim-records-of-deleted-accounts.ts';
import { silentLogger } from '../storage/open-test-storage.ts';
import { admin, newUser, orgWithScim, PATCH_OP, scimClient } from './support.ts';

for (const kind of ['sqlite', 'postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`SCIM records of deleted accounts on ${kind}`, () => {
    let db: TestDatabase | undefined;
    let server: TestServer;
    let org: { orgId: string; token: string };
    const scim = scimClient(() => server, () => org.token);
    const agree = async () => {
      const list = (await scim('GET', '/Users?count=1000')).body;
      assert.equal(list.totalResults, list.Resources.length, 'totalResults counts only what the list shows');
      return (list.Resources as Array<{ id: string }>).map((r) => r.id).sort();
    };
    before(async () => {
      db = kind === 'sqlite' ? undefined : await createTestDatabase(kind);
      server = await startServer(db?.flags ?? []);
      org = await orgWithScim(server, ['example.com']);
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('delete_user removes the link, its emails and its group memberships', async () => {
      const [ann, bob, cy] = await Promise.all(['ann', 'bob', 'cy'].map(async (name) => (await scim('POST', '/Users', newUser(`${name}@example.com`, { emails: [{ value: `${name}@home.example.com`, type: 'home' }] }))).body.id as string));
      // An inactive provisioned user keeps its link and groups without a membership.
      assert.equal((await scim('PATCH', `/Users/${cy}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] })).status, 200);
      const group = (await scim('POST', '/Groups', { displayName: 'Team', members: [{ value: ann }, { value: bob }, { value: cy }] })).body;
      assert.equal((await admin(server, 'delete_user', { id: bob })).status, 200);
      assert.equal((await admin(server, 'delete_user', { id: cy })).status, 200);
      assert.deepEqual(await agree(), [ann]);
      assert.equal((await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "bob@example.com"')}`)).body.totalResults, 0);
      assert.equal((await scim('GET', `/Users?filter=${encodeURIComponent('emails[value eq "bob@home.example.com"]')}`)).body.totalResults, 0);
      const after = (await scim('GET', `/Groups/${group.id}`)).body;
      assert.deepEqual(after.members.map((m: any) => m.value), [ann]);
      assert.notEqual(after.meta.version, group.meta.version, 'the group has a new version');
      const em = server.app.deps.storage.fork();
      assert.equal(await em.count(ScimUser, { userId: { $in: [bob, cy] } }), 0);
      assert.equal(await em.count(ScimUserEmail, { userId: { $in: [bob, cy] } }), 0);
      assert.equal(await em.count(ScimGroupMember, { userId: { $in: [bob, cy] } }), 0);
    });

    test('migration 0007 removes the records earlier versions left behind, and only those', async () => {
      const dan = (await scim('POST', '/Users', newUser('dan@example.com'))).body.id as string;
      const group = (await scim('POST', '/Groups', { displayName: 'Left', members: [{ value: dan }] })).body.id as string;
      const ghost = randomUUID();
      const linkId = randomUUID();
      const T = new Date();
      await server.app.deps.storage.fork().transactional(async (em) => {
        await em.insertMany(ScimUser, [{ id: linkId, orgId: org.orgId, userId: ghost, userName: 'ghost@example.com', userNameKey: 'ghost@example.com', externalId: null, active: true, managesAccount: true, resource: {}, version: 1, createdAt: T, updatedAt: T }]);
        await em.insertMany(ScimUserEmail, [{ id: randomUUID(), orgId: org.orgId, linkId, userId: ghost, valueKey: 'ghost@example.com' }]);
        await em.insertMany(ScimGroupMember, [{ id: randomUUID(), orgId: org.orgId, groupId: group, userId: ghost }]);
      });
      const before = (await scim('GET', '/Users?count=1000')).body;
      assert.equal(before.totalResults, before.Resources.length + 1, 'the leftover is counted but not shown');
      const storage = server.app.deps.storage;
      await dropScimRecordsOfDeletedAccountsMigration.up({ kind: storage.kind, orm: storage.orm, em: storage.fork(), logger: silentLogger });
      assert.ok((await agree()).includes(dan));
      const em = storage.fork();
      assert.deepEqual([await em.count(ScimUser, { userId: ghost }), await em.count(ScimUserEmail, { linkId }), await em.count(ScimGroupMember, { userId: ghost })], [0, 0, 0]);
      assert.equal(await em.count(ScimGroupMember, { groupId: group, userId: dan }), 1);
    });
  });
}
