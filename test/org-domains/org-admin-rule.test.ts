/**
 * Who may act on an organization's domains (docs/operations.md: org-scoped operations are open to the
 * super-admin or that organization's org-admin role; add_verified_org_domain to the super-admin only). On
 * each protocol and for each org-scoped domain operation: a signed-in outsider, an org-admin of another
 * organization and a plain member hear permission_denied and change nothing; an anonymous caller is
 * unauthenticated; this organization's org-admin is let in. add_verified_org_domain (auth 'admin') refuses
 * every bearer token as unauthenticated, as the other super-admin-only operations do.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers, PROTOCOLS, type As, type SignedInUser } from '../support/org-callers.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { verifiedOrganizationForDomain } from '../../server/modules/org-domains/index.ts';

describe('the org-admin rule on org domains', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  let dns: TestDnsServer;
  const callers = orgCallers(() => server, () => grpc);
  const { call, over } = callers;
  let org: { orgId: string; name: string; admin: SignedInUser };
  let other: { orgId: string; name: string; admin: SignedInUser };
  let outsider: SignedInUser;
  let member: SignedInUser;
  before(async () => {
    dns = await startDnsServer();
    server = await startServer(['--dns-servers', dns.address]);
    grpc = createGrpcClient(server.ports.grpc!);
    ({ home: org, other, outsider, member } = await callers.orgAdminCast('domain'));
    const challenge = await over('rest', 'request_org_domain', { org_id: org.orgId, domain: 'guarded.example' });
    dns.setTxt(challenge.record_name, [challenge.record_value]);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
    await dns?.close();
  });

  const routedTo = async (domain: string) => (await verifiedOrganizationForDomain(server.app.deps.storage.fork(), domain))?.id ?? null;

  const scoped = (): Array<[string, Record<string, unknown>]> => [
    ['request_org_domain', { org_id: org.orgId, domain: 'intruder.example' }],
    ['verify_org_domain', { org_id: org.orgId, domain: 'guarded.example' }],
    ['delete_org_domain', { org_id: org.orgId, domain: 'guarded.example' }],
    ['org_domains', { org_id: org.orgId }],
  ];

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: outsiders, other organizations' admins, plain members and anonymous callers are refused`, async () => {
      const refused: Array<[string, As]> = [
        ['outsider', { bearer: outsider.token }],
        ['admin of another organization', { bearer: other.admin.token }],
        ['plain member', { bearer: member.token }],
      ];
      const queriesBefore = dns.queries.length;
      for (const [name, input] of scoped()) {
        for (const [who, as] of refused) {
          const outcome = await call(protocol, name, input, as);
          assert.deepEqual(outcome, { error: 'permission_denied', message: 'permission denied' }, `${name} as ${who}`);
        }
        const anonymous = await call(protocol, name, input, 'anonymous');
        assert.equal('error' in anonymous && anonymous.error, 'unauthenticated', `${name} anonymously`);
      }
      // The super-admin-only operation takes no bearer token at all: the admin authenticator refuses it first.
      for (const as of [...refused.map(([, as]) => as), 'anonymous' as const]) {
        const outcome = await call(protocol, 'add_verified_org_domain', { org_id: org.orgId, domain: 'intruder.example' }, as);
        assert.equal('error' in outcome && outcome.error, 'unauthenticated', JSON.stringify(outcome));
      }
      // A missing organization answers the same refusal, so outsiders cannot tell which exist.
      const ghost = await call(protocol, 'org_domains', { org_id: '00000000-0000-0000-0000-000000000000' }, { bearer: outsider.token });
      assert.deepEqual(ghost, { error: 'permission_denied', message: 'permission denied' });
      assert.equal(dns.queries.length, queriesBefore, 'no refused caller made the server query DNS');
      const domains = await over('rest', 'org_domains', { org_id: org.orgId });
      assert.deepEqual(domains.domains.map((d: any) => [d.domain, d.state]), [['guarded.example', 'pending']], 'nothing changed');
      assert.equal(await routedTo('intruder.example'), null);
    });
  }

  test("each protocol: this organization's org-admin is let in; add_verified_org_domain stays the super-admin's", async () => {
    const as = { bearer: org.admin.token };
    for (const protocol of PROTOCOLS) {
      const domain = `mine-${protocol}.example`;
      const challenge = await over(protocol, 'request_org_domain', { org_id: org.orgId, domain }, as);
      dns.setTxt(challenge.record_name, [challenge.record_value]);
      assert.equal((await over(protocol, 'verify_org_domain', { org_id: org.orgId, domain }, as)).state, 'verified');
      assert.ok((await over(protocol, 'org_domains', { org_id: org.orgId }, as)).domains.some((d: any) => d.domain === domain));
      assert.deepEqual(await over(protocol, 'delete_org_domain', { org_id: org.orgId, domain }, as), { message: 'domain deleted successfully' });
      const add = await call(protocol, 'add_verified_org_domain', { org_id: org.orgId, domain }, as);
      assert.equal('error' in add && add.error, 'unauthenticated', `${protocol}: an org-admin cannot skip the DNS proof`);
    }
  });

  test("a disabled organization's org-admin loses access to its domains", async () => {
    const suspended = await callers.orgWithAdmin('domain-suspended');
    await over('rest', 'update_organization', { id: suspended.orgId, enabled: false });
    const outcome = await call('rest', 'request_org_domain', { org_id: suspended.orgId, domain: 'suspended.example' }, { bearer: suspended.admin.token });
    assert.deepEqual(outcome, { error: 'permission_denied', message: 'permission denied' });
  });
});
