/**
 * Organization SAML sign-in on PostgreSQL and MariaDB (SQLite runs in the other suites): a connection with
 * its certificates round-trips, the one-per-organization rule holds on the database, a full sign-in through
 * the samlify IdP creates the account, the link and the membership, a second sign-in reuses them, the
 * assertion-ID record refuses a reused ID on the database's primary key, and deleting the organization
 * removes the connection, links, flows in flight and assertion records.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';
import { restClient } from '../support/rest-client.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { SamlTestIdp, decodeResponse } from '../support/saml-idp.ts';
import { OrgSsoIdentity } from '../../server/modules/org-sso/index.ts';
import { OrgSamlAssertionUse, OrgSamlConnection, OrgSamlLoginState } from '../../server/modules/org-sso/saml-connection.entities.ts';

const APP = 'https://app.example.com/callback';
const ACS = 'http://127.0.0.1:8080/sso/saml/saml-store/acs';

for (const kind of ['postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`organization SAML storage on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let grpc: GrpcTestClient;
    const idp = new SamlTestIdp({ entityId: `https://idp-${kind}.store-corp.com` });
    const callers = orgCallers(() => server, () => grpc);
    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer([...db.flags, '--allowed-origins', '*,https://app.example.com']);
      grpc = createGrpcClient(server.ports.grpc!);
    });
    after(async () => {
      grpc?.close();
      await server?.close();
      await db?.cleanup();
    });

    test('connection, sign-in twice, a reused assertion ID refused, removal with the organization', async () => {
      const { over, call } = callers;
      const org = await over('rest', 'create_organization', { name: 'saml-store' });
      await over('rest', 'add_verified_org_domain', { org_id: org.id, domain: 'store-corp.com' });
      const input = { org_id: org.id, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificate: idp.certificate.certificatePem, allowed_email_domains: ['store-corp.com'] };
      const connection = await over('grpc', 'create_org_saml_connection', input);
      assert.deepEqual((await over('graphql', 'org_saml_connection', { org_id: org.id })).idp_certificates, connection.idp_certificates);
      const twice = await call('rest', 'create_org_saml_connection', input);
      assert.equal('error' in twice && twice.error, 'already_exists');
      const metadata = await (await fetch(`${server.baseUrl}/sso/saml/saml-store/metadata`)).text();

      const signIn = async (state: string, values: Record<string, string> = {}) => {
        const browser = new TestBrowser(server.baseUrl, []);
        const hop = await browser.request(`${server.baseUrl}/sso/saml-store/start?${new URLSearchParams({ redirect_uri: APP, state })}`);
        const request = await idp.readRequest(metadata, hop.location!);
        const response = await idp.respond(metadata, request.id, { nameId: 's-1', email: 'someone@store-corp.com' }, { values });
        const answer = await browser.request(ACS, { method: 'POST', form: { SAMLResponse: response, RelayState: request.relayState } });
        return { browser, answer, response };
      };
      const ids: string[] = [];
      let firstResponse = '';
      for (const state of ['one', 'two']) {
        const { browser, answer, response } = await signIn(state);
        firstResponse ||= response;
        assert.equal(answer.location, `${APP}?state=${state}`, answer.body?.slice(0, 300));
        const session = await restClient(server).post('/v1/session', {}, { cookie: browser.cookieHeader() });
        assert.equal(session.status, 200);
        ids.push(session.body.user.id);
      }
      assert.equal(ids[0], ids[1], 'the second sign-in found the linked account');
      const assertionId = /<saml:Assertion[^>]* ID="([^"]+)"/.exec(decodeResponse(firstResponse))![1]!;
      const reused = await signIn('three', { AssertionID: assertionId });
      assert.equal(reused.answer.status, 400, 'the assertion ID was recorded');

      // A flow left in flight, then the organization goes with everything scoped to it.
      await new TestBrowser(server.baseUrl, []).request(`${server.baseUrl}/sso/saml-store/start?${new URLSearchParams({ redirect_uri: APP, state: 'left' })}`);
      const em = server.app.deps.storage.fork();
      assert.equal(await em.count(OrgSamlLoginState, { orgId: org.id }), 1);
      assert.equal(await em.count(OrgSsoIdentity, { orgId: org.id }), 1);
      assert.equal(await em.count(OrgSamlAssertionUse, { orgId: org.id }), 2);
      await over('rest', 'delete_organization', { id: org.id });
      assert.equal(await em.count(OrgSamlConnection, { orgId: org.id }), 0);
      assert.equal(await em.count(OrgSsoIdentity, { orgId: org.id }), 0);
      assert.equal(await em.count(OrgSamlLoginState, { orgId: org.id }), 0);
      assert.equal(await em.count(OrgSamlAssertionUse, { orgId: org.id }), 0);
    });
  });
}
