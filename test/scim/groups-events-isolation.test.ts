/**
 * SCIM Groups as org roles (a group's displayName is a role its members hold in the organization), the
 * events of docs/events.md ("user.provisioned", "user.scim_updated", "user.deprovisioned", "group.created",
 * "group.updated", "group.deleted" with `group {id, org_id, display_name, external_id}`), and isolation: one
 * organization's token never reads, changes or references another organization's users and groups.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { OrgMember } from '../../server/modules/organizations/index.ts';
import { listEvents } from '../../server/modules/events/index.ts';
import { admin, assertScimError, GROUP_SCHEMA, newUser, orgWithScim, PATCH_OP, scimClient } from './support.ts';

describe('SCIM Groups, events and isolation', () => {
  let server: TestServer;
  let a: { orgId: string; token: string };
  let b: { orgId: string; token: string };
  const scimA = scimClient(() => server, () => a.token);
  const scimB = scimClient(() => server, () => b.token);
  const rolesOf = async (orgId: string, userId: string) => (await server.app.deps.storage.fork().findOne(OrgMember, { orgId, userId }))?.roles ?? null;
  const events = async (name: string) => (await listEvents(server.app.deps.storage.fork(), { eventName: name as never, limit: 1000 })).map((e) => e.payload as any);
  let ann: string;
  let bob: string;
  before(async () => {
    server = await startServer();
    a = await orgWithScim(server, ['a.example']);
    b = await orgWithScim(server, ['b.example']);
    ann = (await scimA('POST', '/Users', newUser('ann@a.example'))).body.id;
    bob = (await scimA('POST', '/Users', newUser('bob@a.example'))).body.id;
  });
  after(async () => server?.close());

  test('group membership drives org roles: join, leave, rename, delete', async () => {
    const created = await scimA('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Engineers', externalId: 'g-eng', members: [{ value: ann }] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    assert.deepEqual(created.body.members.map((m: any) => m.value), [ann]);
    assert.deepEqual(await rolesOf(a.orgId, ann), ['Engineers']);

    // Entra ID adds and removes members as lists under path "members".
    const added = await scimA('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: bob }] }] });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(await rolesOf(a.orgId, bob), ['Engineers']);
    await scimA('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ value: ann }] }] });
    assert.deepEqual(await rolesOf(a.orgId, ann), []);
    // Okta removes one member by a value filter.
    await scimA('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: ann }] }, { op: 'remove', path: `members[value eq "${bob}"]` }] });
    assert.deepEqual([await rolesOf(a.orgId, ann), await rolesOf(a.orgId, bob)], [['Engineers'], []]);

    const renamed = await scimA('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id, displayName: 'Builders' } }] });
    assert.equal(renamed.body.displayName, 'Builders');
    assert.deepEqual(await rolesOf(a.orgId, ann), ['Builders'], 'a rename renames the role of its members');

    const put = await scimA('PUT', `/Groups/${id}`, { schemas: [GROUP_SCHEMA], displayName: 'Builders', members: [{ value: bob }] }, { 'if-match': renamed.body.meta.version });
    assert.equal(put.status, 200);
    assert.deepEqual([await rolesOf(a.orgId, ann), await rolesOf(a.orgId, bob)], [[], ['Builders']]);

    const entraCheck = await scimA('GET', `/Groups?filter=${encodeURIComponent(`id eq "${id}" and members[value eq "${bob}"]`)}&excludedAttributes=members`);
    assert.equal(entraCheck.body.totalResults, 1);
    assert.equal(entraCheck.body.Resources[0].members, undefined);
    const byName = await scimA('GET', `/Groups?filter=${encodeURIComponent('displayName eq "builders"')}`);
    assert.equal(byName.body.Resources[0].id, id);

    // Deleting a user takes it out of its groups and their roles.
    const carl = (await scimA('POST', '/Users', newUser('carl@a.example'))).body.id;
    await scimA('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: carl }] }] });
    assert.equal((await scimA('DELETE', `/Users/${carl}`)).status, 204);
    assert.deepEqual((await scimA('GET', `/Groups/${id}`)).body.members.map((m: any) => m.value), [bob]);

    assert.equal((await scimA('DELETE', `/Groups/${id}`)).status, 204);
    assert.deepEqual(await rolesOf(a.orgId, bob), []);
    assertScimError(await scimA('GET', `/Groups/${id}`), 404);
  });

  test('concurrent member additions to one group are all kept, with their roles', async () => {
    const group = (await scimA('POST', '/Groups', { displayName: 'Crowd' })).body.id;
    const people = [];
    for (let i = 0; i < 5; i += 1) people.push((await scimA('POST', '/Users', newUser(`crowd${i}@a.example`))).body.id as string);
    const adds = await Promise.all(people.map((id) => scimA('PATCH', `/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }] })));
    assert.deepEqual(adds.map((a) => a.status), [200, 200, 200, 200, 200]);
    const settled = (await scimA('GET', `/Groups/${group}`)).body;
    assert.deepEqual(settled.members.map((m: any) => m.value).sort(), [...people].sort());
    assert.equal(settled.meta.version, 'W/"6"');
    for (const id of people) assert.deepEqual(await rolesOf(a.orgId, id), ['Crowd']);
  });

  test('group errors: duplicate names ignoring case, reserved prefix, unknown members, missing displayName', async () => {
    assert.equal((await scimA('POST', '/Groups', { displayName: 'Sales' })).status, 201);
    assertScimError(await scimA('POST', '/Groups', { displayName: 'SALES' }), 409, 'uniqueness');
    assertScimError(await scimA('POST', '/Groups', { displayName: 'service:org_admin', members: [{ value: ann }] }), 400, 'invalidValue');
    assertScimError(await scimA('POST', '/Groups', { displayName: 'Ghosts', members: [{ value: '00000000-0000-0000-0000-000000000000' }] }), 400, 'invalidValue');
    assertScimError(await scimA('POST', '/Groups', { members: [] }), 400, 'invalidValue');
    assert.equal(await rolesOf(a.orgId, ann) && (await rolesOf(a.orgId, ann))!.includes('service:org_admin'), false);
  });

  test('a group survives members leaving the organization behind its back; an inactive member keeps its groups', async () => {
    const stays = (await scimA('POST', '/Users', newUser('stays@a.example'))).body.id;
    const removed = (await scimA('POST', '/Users', newUser('removed@a.example'))).body.id;
    const deleted = (await scimA('POST', '/Users', newUser('deleted@a.example'))).body.id;
    const group = (await scimA('POST', '/Groups', { displayName: 'Churn', members: [{ value: stays }, { value: removed }, { value: deleted }] })).body.id;
    assert.equal((await admin(server, 'remove_org_member', { org_id: a.orgId, user_id: removed })).status, 200);
    assert.equal((await admin(server, 'delete_user', { id: deleted })).status, 200);
    const rename = await scimA('PATCH', `/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Churned' }] });
    assert.equal(rename.status, 200, JSON.stringify(rename.body));
    assert.deepEqual(rename.body.members.map((m: any) => m.value), [stays]);
    // The deleted account's userName is free again in the organization.
    assert.equal((await scimA('POST', '/Users', newUser('DELETED@a.example'))).status, 201);

    const linkedEmail = `linked-${Date.now()}@elsewhere.example`;
    const signup = await fetch(`${server.baseUrl}/v1/signup`, { method: 'POST', headers: { origin: server.baseUrl, 'content-type': 'application/json' }, body: JSON.stringify({ email: linkedEmail, password: 'Str0ng!scim-user-pass', confirm_password: 'Str0ng!scim-user-pass' }) });
    const linkedId = (await signup.json()).user.id;
    // A member outside the verified domains is linked only once its address is proven (users/address-proof.ts).
    await admin(server, 'update_user', { id: linkedId, email_verified: true });
    await admin(server, 'add_org_member', { org_id: a.orgId, user_id: linkedId, roles: [] });
    assert.equal((await scimA('POST', '/Users', newUser(linkedEmail))).status, 201);
    await scimA('PATCH', `/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: linkedId }] }] });
    await scimA('PATCH', `/Users/${linkedId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    assert.equal(await rolesOf(a.orgId, linkedId), null, 'an inactive member it does not govern leaves the organization');
    const touched = await scimA('PATCH', `/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'externalId', value: 'x-1' }] });
    assert.ok(touched.body.members.some((m: any) => m.value === linkedId), 'and stays in its groups');
    await scimA('PATCH', `/Users/${linkedId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: true }] });
    assert.deepEqual(await rolesOf(a.orgId, linkedId), ['Churned'], 'reactivated, it holds its group roles again');
  });

  test("one organization's token never sees or touches another's users and groups", async () => {
    const group = (await scimA('POST', '/Groups', { displayName: 'Private', members: [{ value: ann }] })).body.id;
    assertScimError(await scimB('GET', `/Users/${ann}`), 404);
    assertScimError(await scimB('PUT', `/Users/${ann}`, newUser('ann@a.example')), 404);
    assertScimError(await scimB('PATCH', `/Users/${ann}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }), 404);
    assertScimError(await scimB('DELETE', `/Users/${ann}`), 404);
    assertScimError(await scimB('GET', `/Groups/${group}`), 404);
    assertScimError(await scimB('DELETE', `/Groups/${group}`), 404);
    assert.equal((await scimB('GET', '/Users')).body.totalResults, 0);
    assert.equal((await scimB('GET', `/Users?filter=${encodeURIComponent('userName eq "ann@a.example"')}`)).body.totalResults, 0);
    assert.equal((await scimB('GET', '/Groups')).body.totalResults, 0);
    assertScimError(await scimB('POST', '/Groups', { displayName: 'Steal', members: [{ value: ann }] }), 400, 'invalidValue');
    // The same address cannot be provisioned into a second organization: the account belongs to the first.
    assertScimError(await scimB('POST', '/Users', newUser('ann@a.example')), 409, 'uniqueness');
    // userName is unique per organization only.
    const other = await scimB('POST', '/Users', { userName: 'ann', emails: [{ value: 'ann@b.example' }] });
    const mine = await scimA('POST', '/Users', { userName: 'ANN', emails: [{ value: 'ann2@a.example' }] });
    assert.deepEqual([other.status, mine.status], [201, 201]);
    assert.equal((await scimA('GET', `/Groups/${group}`)).body.members.length, 1);
  });

  test('events are recorded with the user or the group', async () => {
    const provisioned = await events('user.provisioned');
    assert.ok(provisioned.some((p) => p.user.id === ann && p.user.email === 'ann@a.example'));
    const dave = (await scimA('POST', '/Users', newUser('dave@a.example'))).body.id;
    await scimA('PATCH', `/Users/${dave}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value: 'Boss' }] });
    assert.ok((await events('user.scim_updated')).some((p) => p.user.id === dave));
    await scimA('PATCH', `/Users/${dave}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    await scimA('DELETE', `/Users/${dave}`);
    assert.equal((await events('user.deprovisioned')).filter((p) => p.user.id === dave).length, 2, 'active false and DELETE each deprovision');

    const group = await scimA('POST', '/Groups', { displayName: 'Eventful', externalId: 'ext-ev' });
    await scimA('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Eventful 2' }] });
    await scimA('DELETE', `/Groups/${group.body.id}`);
    const expected = (name: string) => ({ group: { id: group.body.id, org_id: a.orgId, display_name: name, external_id: 'ext-ev' } });
    assert.deepEqual((await events('group.created')).find((p) => p.group.id === group.body.id), expected('Eventful'));
    assert.deepEqual((await events('group.updated')).find((p) => p.group.id === group.body.id), expected('Eventful 2'));
    assert.deepEqual((await events('group.deleted')).find((p) => p.group.id === group.body.id), expected('Eventful 2'));
  });
});
