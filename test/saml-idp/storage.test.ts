/**
 * The SAML IdP on PostgreSQL and MariaDB (SQLite runs in the other suites): keys made on first use with one
 * current key per organization held by the database's unique index (NULLs of the demoted keys allowed
 * side by side), rotation and retirement; service providers with the entity id unique per organization on
 * the database; a full SP-initiated sign-in accepted by node-saml; a replayed request refused by the
 * request record's primary key; a pending sign-in resumed once; and removal of keys, providers, request
 * records and pending sign-ins with the organization.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';
import { SamlIdpKey, SamlServiceProvider } from '../../server/modules/saml-idp/saml-idp.entities.ts';
import { SamlIdpPendingLogin, SamlIdpRequestUse } from '../../server/modules/saml-idp/sso-state.entities.ts';
import { browserSession, idpMetadata, metadataCertificates, nodeSamlSp, signUp, visit } from './idp-browser.ts';

const ORG = 'idp-store';
const SP = 'https://store-sp.example.com/metadata';
const ACS = 'https://store-sp.example.com/acs';

for (const kind of ['postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`SAML IdP storage on ${kind}`, () => {
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

    test('keys, providers, a sign-in, a replay refused, a resume, removal with the organization', async () => {
      const { over, call } = callers;
      const org = await over('rest', 'create_organization', { name: ORG });
      const first = await Promise.all([0, 1, 2].map(() => over('rest', 'saml_idp_keys', { org_id: org.id })));
      assert.equal(new Set(first.map((list) => list.keys[0].id)).size, 1, 'concurrent first uses make one key');
      await over('grpc', 'rotate_saml_idp_cert', { org_id: org.id });
      const rotated = await over('graphql', 'rotate_saml_idp_cert', { org_id: org.id });
      assert.deepEqual(rotated.keys.map((k: any) => k.state), ['current', 'published', 'published'], 'two demoted keys side by side');
      const retired = await over('rest', 'retire_saml_idp_key', { org_id: org.id, key_id: rotated.keys[2].id });
      assert.deepEqual(retired.keys.map((k: any) => k.state), ['current', 'published', 'retired']);
      assert.equal(metadataCertificates(await idpMetadata(server, ORG)).length, 2);

      const input = { org_id: org.id, name: 'Store', entity_id: SP, acs_endpoints: [{ url: ACS }], attribute_mapping: [{ field: 'email', attribute: 'mail' }] };
      const created = await over('grpc', 'create_saml_service_provider', input);
      assert.deepEqual(await over('graphql', 'saml_service_provider', { id: created.id }), created);
      const twice = await call('rest', 'create_saml_service_provider', input);
      assert.equal('error' in twice && twice.error, 'already_exists');

      const email = `store-${randomBytes(4).toString('hex')}@example.com`;
      await over('rest', 'add_org_member', { org_id: org.id, user_id: await signUp(server, email) });
      const cookie = await browserSession(server, email);
      const sp = nodeSamlSp({ org: ORG, entityId: SP, acsUrl: ACS, idpCertificates: metadataCertificates(await idpMetadata(server, ORG)) });
      const url = await sp.getAuthorizeUrlAsync('', undefined, {});
      const answer = await visit(server, url, { cookie });
      assert.equal(answer.status, 200, answer.body);
      const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
      assert.equal(profile!.nameID, email);
      assert.equal((await visit(server, url, { cookie })).status, 400, 'the request ID is recorded');

      const pending = await visit(server, await sp.getAuthorizeUrlAsync('', undefined, {}));
      const resume = new URL(pending.location!).searchParams.get('redirect_uri')!;
      const em = server.app.deps.storage.fork();
      assert.equal(await em.count(SamlIdpPendingLogin, { orgId: org.id }), 1);
      assert.equal((await visit(server, resume, { cookie })).status, 200);
      assert.equal((await visit(server, resume, { cookie })).status, 400, 'resumed once');
      await visit(server, await sp.getAuthorizeUrlAsync('', undefined, {}));

      assert.equal(await em.count(SamlIdpKey, { orgId: org.id }), 3);
      assert.equal(await em.count(SamlIdpRequestUse, { orgId: org.id }), 3);
      assert.equal(await em.count(SamlIdpPendingLogin, { orgId: org.id }), 1);
      await over('rest', 'delete_organization', { id: org.id });
      for (const entity of [SamlIdpKey, SamlServiceProvider, SamlIdpRequestUse, SamlIdpPendingLogin]) {
        assert.equal(await em.count(entity as any, { orgId: org.id }), 0);
      }
    });
  });
}
