/**
 * The SCIM endpoint operations (docs/operations.md, "SCIM") over REST, GraphQL and gRPC: one endpoint per
 * organization, the token in the create and rotate answers only (never in scim_endpoint, never at rest),
 * rotation and deletion refusing the old token at once, and the org-admin rule on all four operations.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers, PROTOCOLS, type As, type SignedInUser } from '../support/org-callers.ts';
import { ScimEndpoint } from '../../server/modules/scim/index.ts';

async function scimStatus(server: TestServer, token: string): Promise<number> {
  const res = await fetch(`${server.baseUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

describe('SCIM endpoint operations', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  const callers = orgCallers(() => server, () => grpc);
  const { call, over } = callers;
  let home: { orgId: string; name: string; admin: SignedInUser };
  let other: { orgId: string; name: string; admin: SignedInUser };
  let outsider: SignedInUser;
  before(async () => {
    server = await startServer();
    grpc = createGrpcClient(server.ports.grpc!);
    home = await callers.orgWithAdmin();
    other = await callers.orgWithAdmin();
    outsider = await callers.signedInUser();
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: create, read, rotate and delete; the token is shown only by create and rotate`, async () => {
      const org = await over(protocol, 'create_organization', { name: `scim-${protocol}` });
      const before = await over(protocol, 'scim_endpoint', { org_id: org.id });
      assert.deepEqual(before, { org_id: org.id, base_url: 'http://127.0.0.1:8080/scim/v2/', exists: false });

      const created = await over(protocol, 'create_scim_endpoint', { org_id: org.id });
      assert.match(created.token, /^scim_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.scim_endpoint.org_id, org.id);
      assert.equal(created.scim_endpoint.base_url, 'http://127.0.0.1:8080/scim/v2/');
      assert.equal(await scimStatus(server, created.token), 200);

      const again = await call(protocol, 'create_scim_endpoint', { org_id: org.id });
      assert.equal('error' in again && again.error, 'already_exists', 'one endpoint per organization');

      const read = await over(protocol, 'scim_endpoint', { org_id: org.id });
      assert.equal(read.exists, true);
      assert.equal(read.scim_endpoint.id, created.scim_endpoint.id);
      assert.ok(!JSON.stringify(read).includes(created.token), 'scim_endpoint never returns the token');
      assert.ok(!('token' in read) && !('token' in read.scim_endpoint));
      assert.ok(read.scim_endpoint.last_used_at >= read.scim_endpoint.created_at, 'the SCIM call above is recorded as a use');

      // At rest only a digest: the token is nowhere in the row.
      const row = await server.app.deps.storage.fork().findOneOrFail(ScimEndpoint, { orgId: org.id });
      assert.ok(!JSON.stringify(row).includes(created.token.slice(5)));
      assert.match(row.tokenDigest, /^[0-9a-f]{64}$/);

      const rotated = await over(protocol, 'rotate_scim_token', { org_id: org.id });
      assert.notEqual(rotated.token, created.token);
      assert.equal(await scimStatus(server, created.token), 401, 'the old token is refused at once');
      assert.equal(await scimStatus(server, rotated.token), 200);

      assert.deepEqual(await over(protocol, 'delete_scim_endpoint', { org_id: org.id }), { message: 'SCIM endpoint deleted successfully' });
      assert.equal(await scimStatus(server, rotated.token), 401, 'a deleted endpoint refuses its token at once');
      assert.equal((await over(protocol, 'scim_endpoint', { org_id: org.id })).exists, false);
      const gone = await call(protocol, 'rotate_scim_token', { org_id: org.id });
      assert.equal('error' in gone && gone.error, 'not_found');
      const goneDelete = await call(protocol, 'delete_scim_endpoint', { org_id: org.id });
      assert.equal('error' in goneDelete && goneDelete.error, 'not_found');
    });

    test(`${protocol}: outsiders and another organization's org-admin are refused; this organization's org-admin is let in`, async () => {
      const refused: Array<[string, As]> = [['outsider', { bearer: outsider.token }], ['admin of another organization', { bearer: other.admin.token }]];
      for (const name of ['create_scim_endpoint', 'rotate_scim_token', 'delete_scim_endpoint', 'scim_endpoint']) {
        for (const [who, as] of refused) {
          assert.deepEqual(await call(protocol, name, { org_id: home.orgId }, as), { error: 'permission_denied', message: 'permission denied' }, `${name} as ${who}`);
        }
        const anonymous = await call(protocol, name, { org_id: home.orgId }, 'anonymous');
        assert.equal('error' in anonymous && anonymous.error, 'unauthenticated', `${name} anonymously`);
      }
      const as = { bearer: home.admin.token };
      const created = await over(protocol, 'create_scim_endpoint', { org_id: home.orgId }, as);
      assert.equal((await over(protocol, 'scim_endpoint', { org_id: home.orgId }, as)).exists, true);
      const rotated = await over(protocol, 'rotate_scim_token', { org_id: home.orgId }, as);
      assert.equal(await scimStatus(server, created.token), 401);
      assert.equal(await scimStatus(server, rotated.token), 200);
      await over(protocol, 'delete_scim_endpoint', { org_id: home.orgId }, as);
      assert.equal(await scimStatus(server, rotated.token), 401);
    });
  }

  test('a disabled organization suspends its token; deleting the organization deletes its endpoint', async () => {
    const org = await over('rest', 'create_organization', { name: 'scim-suspended' });
    const { token } = await over('rest', 'create_scim_endpoint', { org_id: org.id });
    await over('rest', 'update_organization', { id: org.id, enabled: false });
    assert.equal(await scimStatus(server, token), 403);
    await over('rest', 'update_organization', { id: org.id, enabled: true });
    assert.equal(await scimStatus(server, token), 200);
    await over('rest', 'delete_organization', { id: org.id });
    assert.equal(await scimStatus(server, token), 401);
    assert.equal(await server.app.deps.storage.fork().count(ScimEndpoint, { orgId: org.id }), 0);
  });
});
