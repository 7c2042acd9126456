/**
 * SCIM endpoints, users and groups on PostgreSQL and MariaDB (SQLite runs in the other suites): the token
 * digest lookup, the JSON columns round-tripping, the per-organization unique userName and displayName
 * indexes answering 409 uniqueness, concurrent PATCHes of one group losing no member, and delete_organization removing every SCIM row of the organization.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { ScimEndpoint, ScimGroup, ScimUser } from '../../server/modules/scim/index.ts';
import { admin, assertScimError, newUser, orgWithScim, PATCH_OP, scimClient } from './support.ts';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

for (const kind of ['postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`SCIM storage on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let org: { orgId: string; token: string };
    const scim = scimClient(() => server, () => org.token);
    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer(db.flags);
      org = await orgWithScim(server, ['trip.example']);
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('users and groups round-trip; unique names per organization; the organization takes its rows along', async () => {
      const user = await scim('POST', '/Users', newUser('Round@Trip.example', { [ENTERPRISE]: { manager: { value: 'm-1' } }, emails: [{ value: 'round@trip.example', type: 'work', primary: true }, { value: 'ü@trip.example', type: 'home' }] }));
      assert.equal(user.status, 201, JSON.stringify(user.body));
      const read = await scim('GET', `/Users/${user.body.id}`);
      assert.deepEqual(read.body, user.body);
      assertScimError(await scim('POST', '/Users', newUser('ROUND@trip.example')), 409, 'uniqueness');
      const patched = await scim('PATCH', `/Users/${user.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'emails[type eq "home"].value', value: 'home@trip.example' }] });
      assert.equal(patched.body.emails[1].value, 'home@trip.example');

      const group = await scim('POST', '/Groups', { displayName: 'Round', members: [{ value: user.body.id }] });
      assert.equal(group.status, 201);
      assertScimError(await scim('POST', '/Groups', { displayName: 'ROUND' }), 409, 'uniqueness');
      assert.deepEqual((await scim('GET', `/Groups/${group.body.id}`)).body.members.map((m: any) => m.value), [user.body.id]);

      // Concurrent PATCHes of one group lose no member: each claims the next version or is retried.
      const people = await Promise.all(Array.from({ length: 6 }, async (_, i) => (await scim('POST', '/Users', newUser(`racer${i}@trip.example`))).body.id as string));
      const adds = await Promise.all(people.map((id) => scim('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }] })));
      assert.ok(adds.every((a) => a.status === 200 || (a.status === 409 && /concurrent/.test(a.body.detail))), JSON.stringify(adds.map((a) => a.status)));
      const settled = (await scim('GET', `/Groups/${group.body.id}`)).body;
      const added = adds.filter((a) => a.status === 200).length;
      assert.equal(settled.members.length, 1 + added, 'every answered add is kept');
      assert.equal(settled.meta.version, `W/"${1 + added}"`);

      assert.equal((await admin(server, 'delete_organization', { id: org.orgId })).status, 200);
      assertScimError(await scim('GET', '/Users'), 401);
      const em = server.app.deps.storage.fork();
      assert.deepEqual([await em.count(ScimEndpoint, { orgId: org.orgId }), await em.count(ScimUser, { orgId: org.orgId }), await em.count(ScimGroup, { orgId: org.orgId })], [0, 0, 0]);
    });
  });
}
