/**
 * Group members kept one row each (modules/scim/scim-group-members.ts) on SQLite, PostgreSQL and MariaDB:
 * the membership filters (`members[value eq]`, `members.value eq`, negated, caseExact even where the database
 * folds case), PATCH member changes applied by the index with their roles and errors, and the PATCH answer of
 * a group too large to list (204 with its ETag, RFC 7644 section 3.5.2; 200 with every member when
 * `attributes` asks for them).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { OrgMember } from '../../server/modules/organizations/index.ts';
import { ScimGroupMember } from '../../server/modules/scim/index.ts';
import { ANSWERED_MEMBERS } from '../../server/modules/scim/scim-group-patch.ts';
import { assertScimError, newUser, orgWithScim, PATCH_OP, scimClient } from './support.ts';

for (const kind of ['sqlite', 'postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`SCIM group members on ${kind}`, () => {
    let db: TestDatabase | undefined;
    let server: TestServer;
    let org: { orgId: string; token: string };
    const scim = scimClient(() => server, () => org.token);
    const rolesOf = async (userId: string) => (await server.app.deps.storage.fork().findOne(OrgMember, { orgId: org.orgId, userId }))?.roles ?? null;
    const groupsMatching = async (filter: string) => ((await scim('GET', `/Groups?excludedAttributes=members&filter=${encodeURIComponent(filter)}`)).body.Resources as Array<{ id: string }>).map((r) => r.id).sort();
    const patch = (id: string, operations: unknown[], query = '') => scim('PATCH', `/Groups/${id}${query}`, { schemas: [PATCH_OP], Operations: operations });
    let ann: string;
    let bob: string;
    let cy: string;
    before(async () => {
      db = kind === 'sqlite' ? undefined : await createTestDatabase(kind);
      server = await startServer(db?.flags ?? []);
      org = await orgWithScim(server, ['example.com']);
      [ann, bob, cy] = await Promise.all(['ann', 'bob', 'cy'].map(async (name) => (await scim('POST', '/Users', newUser(`${name}@example.com`))).body.id as string));
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('membership filters answer from the member rows', async () => {
      const one = (await scim('POST', '/Groups', { displayName: 'One', members: [{ value: ann }, { value: bob }] })).body.id;
      const two = (await scim('POST', '/Groups', { displayName: 'Two', members: [{ value: bob }] })).body.id;
      assert.deepEqual(await groupsMatching(`members[value eq "${ann}"]`), [one]);
      assert.deepEqual(await groupsMatching(`members.value eq "${bob}"`), [one, two].sort());
      assert.deepEqual(await groupsMatching(`id eq "${two}" and members[value eq "${ann}"]`), []);
      assert.deepEqual(await groupsMatching(`displayName eq "one" and not (members[value eq "${cy}"])`), [one]);
      assert.deepEqual(await groupsMatching(`members[value eq "${ann.toUpperCase()}"]`), [], 'value is caseExact on every database');
      const full = await scim('GET', `/Groups?filter=${encodeURIComponent(`members[value eq "${ann}"]`)}`);
      assert.deepEqual(full.body.Resources[0].members.map((m: any) => m.value), [ann, bob].sort(), 'a page that shows members lists all of them');
    });

    test('PATCH member changes: roles follow, the net change of each member counts, a stranger changes nothing', async () => {
      const id = (await scim('POST', '/Groups', { displayName: 'Crew', members: [{ value: ann }] })).body.id;
      const added = await patch(id, [{ op: 'add', path: 'members', value: [{ value: bob }, { value: ann }] }]);
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.deepEqual(added.body.members.map((m: any) => m.value), [ann, bob].sort());
      assert.equal(added.body.meta.version, 'W/"2"');
      assert.ok((await rolesOf(bob))!.includes('Crew'));
      // Added then removed in one PATCH: not a member; removed then added: a member.
      const net = await patch(id, [{ op: 'add', path: 'members', value: [{ value: cy }] }, { op: 'remove', path: `members[value eq "${cy}"]` }, { op: 'remove', path: 'members', value: [{ value: ann }] }, { op: 'add', path: 'members', value: [{ value: ann }] }]);
      assert.deepEqual(net.body.members.map((m: any) => m.value), [ann, bob].sort());
      assert.equal((await rolesOf(cy))!.includes('Crew'), false);
      const removed = await patch(id, [{ op: 'Remove', path: 'members', value: [ann, { value: cy }] }]);
      assert.deepEqual(removed.body.members.map((m: any) => m.value), [bob]);
      assert.equal((await rolesOf(ann))!.includes('Crew'), false);
      const stranger = await patch(id, [{ op: 'add', path: 'members', value: [{ value: ann }, { value: randomUUID() }] }]);
      assertScimError(stranger, 400, 'invalidValue');
      assertScimError(await patch(id, [{ op: 'add', path: 'members', value: [{ display: 'no value' }] }]), 400, 'invalidValue');
      const after = (await scim('GET', `/Groups/${id}`)).body;
      assert.deepEqual([after.members.map((m: any) => m.value), after.meta.version], [[bob], 'W/"4"'], 'a refused PATCH changes nothing');
      assert.equal((await rolesOf(ann))!.includes('Crew'), false);
    });

    test(`a group of more than ${ANSWERED_MEMBERS} members: PATCH answers 204 unless attributes asks, and reads do not need the list`, async () => {
      const id = (await scim('POST', '/Groups', { displayName: 'Huge', members: [{ value: ann }] })).body.id;
      const others = Array.from({ length: ANSWERED_MEMBERS }, () => randomUUID());
      await server.app.deps.storage.fork().insertMany(ScimGroupMember, others.map((userId) => ({ id: randomUUID(), orgId: org.orgId, groupId: id, userId })));
      const added = await patch(id, [{ op: 'add', path: 'members', value: [{ value: bob }] }]);
      assert.equal(added.status, 204);
      assert.equal(added.headers.get('etag'), 'W/"2"');
      assert.deepEqual(await groupsMatching(`id eq "${id}" and members[value eq "${bob}"]`), [id]);
      const asked = await patch(id, [{ op: 'remove', path: `members[value eq "${bob}"]` }], '?attributes=members');
      assert.equal(asked.status, 200);
      assert.equal(asked.body.members.length, ANSWERED_MEMBERS + 1);
      const without = await patch(id, [{ op: 'add', path: 'members', value: [{ value: cy }] }], '?excludedAttributes=members');
      assert.deepEqual([without.status, without.body.members, without.body.displayName], [200, undefined, 'Huge']);
      const read = await scim('GET', `/Groups/${id}?excludedAttributes=members`);
      assert.deepEqual([read.status, read.body.members, read.body.meta.version], [200, undefined, 'W/"4"']);
      assert.equal((await scim('GET', `/Groups/${id}`)).body.members.length, ANSWERED_MEMBERS + 2);
      assert.deepEqual(await rolesOf(cy), ['Huge']);
    });
  });
}
