/**
 * Organizations and members (docs/operations.md, "Organizations"): the super-admin's create, list and
 * delete; reading, renaming and membership open to that organization's org-admins and to nobody else; the
 * same answers over REST, GraphQL and gRPC.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orgCallersOnServer, PROTOCOLS } from '../support/org-callers.ts';
import { OrgMember } from '../../server/modules/organizations/index.ts';

describe('organizations', () => {
  const callers = orgCallersOnServer();
  const { server } = callers;
  const { call, over } = callers;

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: the super-admin creates, reads, renames, lists and deletes an organization`, async () => {
      const name = `acme-${protocol}`;
      const created = await over(protocol, 'create_organization', { name, display_name: 'Acme Inc.' });
      assert.equal(created.name, name);
      assert.equal(created.display_name, 'Acme Inc.');
      assert.equal(created.enabled, true);
      assert.ok(created.created_at > 1_700_000_000);
      assert.deepEqual(await over(protocol, 'organization', { id: created.id }), created);
      assert.deepEqual(await over(protocol, 'organization', { name }), created);
      const renamed = await over(protocol, 'update_organization', { id: created.id, name: `${name}-eu`, display_name: 'Acme EU' });
      assert.equal(renamed.name, `${name}-eu`);
      assert.equal(renamed.display_name, 'Acme EU');
      const listed = await over(protocol, 'organizations', { query: `${name}-eu` });
      assert.deepEqual(listed.organizations.map((o: any) => o.id), [created.id]);
      assert.equal(listed.pagination.total, 1);
      await over(protocol, 'delete_organization', { id: created.id });
      assert.deepEqual(await call(protocol, 'organization', { id: created.id }), { error: 'not_found', message: 'organization not found' });
    });
  }

  test('names are unique URL-safe slugs', async () => {
    await over('rest', 'create_organization', { name: 'taken' });
    for (const protocol of PROTOCOLS) {
      const duplicate = await call(protocol, 'create_organization', { name: 'taken' });
      assert.equal('error' in duplicate && duplicate.error, 'already_exists', JSON.stringify(duplicate));
    }
    for (const bad of ['Upper', '-lead', 'trail-', 'sp ace', 'dot.ted', 'x'.repeat(64), 'ünï', '']) {
      const refused = await call('rest', 'create_organization', { name: bad });
      assert.equal('error' in refused && refused.error, 'invalid_argument', `${bad}: ${JSON.stringify(refused)}`);
    }
    const other = await over('rest', 'create_organization', { name: 'other-one' });
    const clash = await call('graphql', 'update_organization', { id: other.id, name: 'taken' });
    assert.equal('error' in clash && clash.error, 'already_exists');
  });

  test('members: added with org roles, roles replaced, listed with the user, removed', async () => {
    const org = await over('rest', 'create_organization', { name: 'members-org' });
    const alice = await callers.signedInUser();
    const bob = await callers.signedInUser();
    const added = await over('grpc', 'add_org_member', { org_id: org.id, user_id: alice.userId, roles: ['billing', 'billing', 'viewer'] });
    assert.deepEqual(added.roles, ['billing', 'viewer']);
    assert.equal(added.user.email, alice.email);
    await over('rest', 'add_org_member', { org_id: org.id, user_id: bob.userId });
    const replaced = await over('graphql', 'add_org_member', { org_id: org.id, user_id: alice.userId, roles: ['viewer'] });
    assert.equal(replaced.id, added.id, 'adding a member again replaces the roles of the same membership');
    const members = await over('rest', 'org_members', { org_id: org.id });
    assert.deepEqual(members.members.map((m: any) => [m.user.email, m.roles]), [[alice.email, ['viewer']], [bob.email, []]]);
    assert.equal(members.pagination.total, 2);
    // Alice reads her own organizations; the super-admin reads anyone's.
    const own = await over('rest', 'user_organizations', {}, { bearer: alice.token });
    assert.deepEqual(own.organizations.map((o: any) => [o.organization.name, o.roles]), [['members-org', ['viewer']]]);
    assert.deepEqual(await over('grpc', 'user_organizations', { user_id: bob.userId }), { organizations: [{ organization: org, roles: [] }] });
    const peek = await call('graphql', 'user_organizations', { user_id: alice.userId }, { bearer: bob.token });
    assert.equal('error' in peek && peek.error, 'permission_denied', 'a user reads only their own organizations');
    await over('grpc', 'remove_org_member', { org_id: org.id, user_id: bob.userId });
    assert.equal((await over('rest', 'org_members', { org_id: org.id })).pagination.total, 1);
    const again = await call('rest', 'remove_org_member', { org_id: org.id, user_id: bob.userId });
    assert.equal('error' in again && again.error, 'not_found');
    const ghost = await call('rest', 'add_org_member', { org_id: org.id, user_id: '00000000-0000-0000-0000-000000000000' });
    assert.equal('error' in ghost && ghost.error, 'not_found');
    for (const roles of [[''], ['a,b']]) {
      const refused = await call('rest', 'add_org_member', { org_id: org.id, user_id: alice.userId, roles });
      assert.equal('error' in refused && refused.error, 'invalid_argument', JSON.stringify(roles));
    }
  });

  test('deleting an organization removes its memberships; deleting a user leaves every organization', async () => {
    const { orgId, admin } = await callers.orgWithAdmin('doomed');
    const member = await callers.signedInUser();
    const kept = await over('rest', 'create_organization', { name: 'kept' });
    await over('rest', 'add_org_member', { org_id: orgId, user_id: member.userId, roles: ['x'] });
    await over('rest', 'add_org_member', { org_id: kept.id, user_id: member.userId });
    await over('rest', 'delete_organization', { id: orgId });
    // The rows themselves, not only what the operations show: no membership may outlive its organization.
    assert.equal(await server().app.deps.storage.fork().count(OrgMember, { orgId }), 0);
    const left = await over('rest', 'user_organizations', { user_id: member.userId });
    assert.deepEqual(left.organizations.map((o: any) => o.organization.name), ['kept']);
    assert.deepEqual((await over('rest', 'user_organizations', { user_id: admin.userId })).organizations, []);
    await over('rest', 'delete_user', { id: member.userId });
    assert.equal((await over('rest', 'org_members', { org_id: kept.id })).pagination.total, 0);
  });
});
