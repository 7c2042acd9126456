/**
 * The org-admin rule (docs/operations.md, "Organizations": org-scoped operations are open to the
 * super-admin or to that organization's org-admin role). For every org-scoped operation: this
 * organization's org-admin is let in; a signed-in outsider, an org-admin of another organization, a plain
 * member and an anonymous caller are refused, on each protocol. Super-admin-only operations refuse every
 * org-admin. A disabled organization's org-admins lose their rights; an org-admin cannot re-enable it.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers, PROTOCOLS, type As, type SignedInUser } from '../support/org-callers.ts';
import { ADMISSION_REFUSED } from '../../server/modules/organizations/member-admission.ts';

describe('the org-admin rule', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  const callers = orgCallers(() => server, () => grpc);
  const { call, over } = callers;
  let org: { orgId: string; name: string; admin: SignedInUser };
  let other: { orgId: string; name: string; admin: SignedInUser };
  let outsider: SignedInUser;
  let member: SignedInUser;
  before(async () => {
    server = await startServer();
    grpc = createGrpcClient(server.ports.grpc!);
    ({ home: org, other, outsider, member } = await callers.orgAdminCast('rule'));
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  /** Each org-scoped operation with an input aimed at `org`. */
  const scoped = (): Array<[string, Record<string, unknown>]> => [
    ['organization', { id: org.orgId }],
    ['update_organization', { id: org.orgId, display_name: 'Home' }],
    ['org_members', { org_id: org.orgId }],
    ['add_org_member', { org_id: org.orgId, user_id: member.userId, roles: ['editor'] }],
    ['remove_org_member', { org_id: org.orgId, user_id: '00000000-0000-0000-0000-000000000000' }],
  ];

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: outsiders, other organizations' admins, plain members and anonymous callers are refused`, async () => {
      const refused: Array<[string, As]> = [
        ['outsider', { bearer: outsider.token }],
        ['admin of another organization', { bearer: other.admin.token }],
        ['plain member', { bearer: member.token }],
      ];
      for (const [name, input] of scoped()) {
        for (const [who, as] of refused) {
          const outcome = await call(protocol, name, input, as);
          assert.deepEqual(outcome, { error: 'permission_denied', message: 'permission denied' }, `${name} as ${who}`);
        }
        const anonymous = await call(protocol, name, input, 'anonymous');
        assert.equal('error' in anonymous && anonymous.error, 'unauthenticated', `${name} anonymously`);
      }
    });

    test(`${protocol}: this organization's org-admin is let in`, async () => {
      const as = { bearer: org.admin.token };
      assert.equal((await over(protocol, 'organization', { id: org.orgId }, as)).name, 'rule-home');
      assert.equal((await over(protocol, 'organization', { name: 'rule-home' }, as)).id, org.orgId);
      assert.equal((await over(protocol, 'update_organization', { id: org.orgId, display_name: `Home ${protocol}` }, as)).display_name, `Home ${protocol}`);
      assert.ok((await over(protocol, 'org_members', { org_id: org.orgId }, as)).members.some((m: any) => m.user_id === member.userId));
      assert.deepEqual((await over(protocol, 'add_org_member', { org_id: org.orgId, user_id: member.userId, roles: ['editor'] }, as)).roles, ['editor']);
      const missing = await call(protocol, 'remove_org_member', { org_id: org.orgId, user_id: '00000000-0000-0000-0000-000000000000' }, as);
      assert.equal('error' in missing && missing.error, 'not_found', 'past the rule, the operation itself answers');
    });

    test(`${protocol}: super-admin-only operations refuse an org-admin`, async () => {
      const as = { bearer: org.admin.token };
      for (const [name, input] of [
        ['create_organization', { name: `mine-${protocol}` }],
        ['delete_organization', { id: org.orgId }],
        ['organizations', {}],
      ] as Array<[string, Record<string, unknown>]>) {
        const outcome = await call(protocol, name, input, as);
        assert.ok('error' in outcome && ['unauthenticated', 'permission_denied'].includes(outcome.error), `${name}: ${JSON.stringify(outcome)}`);
      }
    });
  }

  test('the same refusal whether or not the organization exists, so outsiders learn nothing', async () => {
    for (const input of [{ id: '00000000-0000-0000-0000-000000000000' }, { name: 'no-such-org' }, { id: other.orgId }]) {
      assert.deepEqual(await call('rest', 'organization', input, { bearer: org.admin.token }), { error: 'permission_denied', message: 'permission denied' });
    }
  });

  test('an org-admin cannot enable or disable; a disabled organization suspends its org-admins', async () => {
    const suspended = await callers.orgWithAdmin('suspended');
    const as = { bearer: suspended.admin.token };
    const selfEnable = await call('rest', 'update_organization', { id: suspended.orgId, enabled: true }, as);
    assert.equal('error' in selfEnable && selfEnable.error, 'permission_denied');
    await over('rest', 'update_organization', { id: suspended.orgId, enabled: false });
    assert.deepEqual(await call('graphql', 'org_members', { org_id: suspended.orgId }, as), { error: 'permission_denied', message: 'permission denied' });
    await over('rest', 'update_organization', { id: suspended.orgId, enabled: true });
    assert.equal((await over('grpc', 'org_members', { org_id: suspended.orgId }, as)).pagination.total, 1);
  });

  test("an org-admin adds only users whose verified email is on the organization's verified domain", async () => {
    const as = { bearer: org.admin.token };
    const refusal = { error: 'permission_denied', message: ADMISSION_REFUSED };
    // A stranger, and a user id that does not exist, get the same answer.
    assert.deepEqual(await call('rest', 'add_org_member', { org_id: org.orgId, user_id: outsider.userId }, as), refusal);
    assert.deepEqual(await call('grpc', 'add_org_member', { org_id: org.orgId, user_id: '00000000-0000-0000-0000-000000000000' }, as), refusal);
    await over('rest', 'add_verified_org_domain', { org_id: org.orgId, domain: 'home-corp.example' });
    const colleague = await callers.signedInUser(`c${Date.now()}@home-corp.example`);
    // The domain matches but the address is unproven: anybody can type any address at signup.
    assert.deepEqual(await call('graphql', 'add_org_member', { org_id: org.orgId, user_id: colleague.userId }, as), refusal);
    await over('rest', 'update_user', { id: colleague.userId, email_verified: true });
    assert.deepEqual((await over('graphql', 'add_org_member', { org_id: org.orgId, user_id: colleague.userId, roles: ['editor'] }, as)).roles, ['editor']);
    // Another organization's verified domain does not help.
    await over('rest', 'add_verified_org_domain', { org_id: other.orgId, domain: 'elsewhere-corp.example' });
    const stranger = await callers.signedInUser(`s${Date.now()}@elsewhere-corp.example`);
    await over('rest', 'update_user', { id: stranger.userId, email_verified: true });
    assert.deepEqual(await call('rest', 'add_org_member', { org_id: org.orgId, user_id: stranger.userId }, as), refusal);
    // The super-admin adds anyone.
    assert.deepEqual((await over('rest', 'add_org_member', { org_id: org.orgId, user_id: stranger.userId })).roles, []);
  });

  test("an org-admin's change is audited with the user as the actor", async () => {
    await over('rest', 'update_organization', { id: org.orgId, display_name: 'Audited' }, { bearer: org.admin.token });
    const logs = await over('rest', 'audit_logs', { action: 'admin.update_organization', resource_id: org.orgId });
    const entry = logs.audit_logs.find((log: any) => log.actor_id === org.admin.userId);
    assert.ok(entry, JSON.stringify(logs.audit_logs));
    assert.equal(entry.actor_type, 'user');
    assert.equal(entry.resource_type, 'organization');
    // An organization-scoped operation that names no record of its own is filed under the organization.
    await over('rest', 'rotate_saml_idp_cert', { org_id: org.orgId }, { bearer: org.admin.token });
    const rotated = await over('rest', 'audit_logs', { action: 'admin.rotate_saml_idp_cert' });
    assert.deepEqual(rotated.audit_logs.map((log: any) => [log.actor_id, log.resource_id]), [[org.admin.userId, org.orgId]]);
  });
});
