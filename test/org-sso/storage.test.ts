/**
 * Organization SSO on PostgreSQL and MariaDB (SQLite runs in the other suites): a connection round-trips
 * with its sealed secret, the one-per-organization rule holds on the database, a full sign-in against a
 * loopback IdP creates the account, the identity link and the membership, a second sign-in reuses them,
 * discovery routes the domain, and deleting the organization removes the connection, links and flows.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';
import { restClient } from '../support/rest-client.ts';
import { startOidcUpstream, type OidcUpstream } from '../support/social-oidc-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { OrgOidcConnection, OrgSsoIdentity, OrgSsoLoginState } from '../../server/modules/org-sso/index.ts';

const APP = 'https://app.example.com/callback';
const CALLBACK = 'http://127.0.0.1:8080/sso/oidc/callback';

for (const kind of ['postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`organization SSO storage on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let grpc: GrpcTestClient;
    let upstream: OidcUpstream;
    const callers = orgCallers(() => server, () => grpc);
    before(async () => {
      db = await createTestDatabase(kind);
      upstream = await startOidcUpstream({ redirectUri: CALLBACK, provider: `idp-${kind}` });
      server = await startServer([...db.flags, '--allowed-origins', '*,https://app.example.com', '--org-sso-allow-private-addresses=true']);
      grpc = createGrpcClient(server.ports.grpc!);
      upstream.accounts.set('s1', { email: 'someone@store-corp.com', email_verified: true, given_name: 'Some' });
    });
    after(async () => {
      grpc?.close();
      await server?.close();
      await upstream?.close();
      await db?.cleanup();
    });

    test('connection, sign-in, second sign-in, discovery and removal with the organization', async () => {
      const { over, call } = callers;
      const org = await over('rest', 'create_organization', { name: 'store-corp' });
      await over('rest', 'add_verified_org_domain', { org_id: org.id, domain: 'store-corp.com' });
      const connection = await over('grpc', 'create_org_oidc_connection', {
        org_id: org.id, issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret, allowed_email_domains: ['store-corp.com'],
      });
      assert.equal(connection.has_client_secret, true);
      assert.deepEqual((await over('graphql', 'org_oidc_connection', { org_id: org.id })).allowed_email_domains, ['store-corp.com']);
      const twice = await call('rest', 'create_org_oidc_connection', { org_id: org.id, issuer: upstream.issuer, client_id: 'x' });
      assert.equal('error' in twice && twice.error, 'already_exists');
      const row = await server.app.deps.storage.fork().findOneOrFail(OrgOidcConnection, { id: connection.id });
      assert.equal(server.app.deps.sealer.open(row.clientSecret!), upstream.clientSecret);
      assert.equal((await over('rest', 'org_discovery', { email: 'x@store-corp.com' }, 'anonymous')).sso_url, 'http://127.0.0.1:8080/sso/store-corp/start');

      const ids: string[] = [];
      for (const state of ['one', 'two']) {
        upstream.signInAs('s1');
        const browser = new TestBrowser(server.baseUrl, [upstream.issuer]);
        const landing = await browser.navigate(`${server.baseUrl}/sso/store-corp/start?${new URLSearchParams({ redirect_uri: APP, state })}`);
        assert.equal(landing.location, `${APP}?state=${state}`, landing.body.slice(0, 300));
        const session = await restClient(server).post('/v1/session', {}, { cookie: browser.cookieHeader() });
        assert.equal(session.status, 200);
        assert.equal(decodeJwt(session.body.access_token).org_name, 'store-corp');
        ids.push(session.body.user.id);
      }
      assert.equal(ids[0], ids[1], 'the second sign-in found the linked account');
      const members = await over('rest', 'org_members', { org_id: org.id });
      assert.deepEqual(members.members.map((m: any) => m.user_id), [ids[0]]);

      // A flow left in flight, then the organization goes with everything scoped to it.
      await new TestBrowser(server.baseUrl, [upstream.issuer]).request(`${server.baseUrl}/sso/store-corp/start?${new URLSearchParams({ redirect_uri: APP, state: 'left' })}`);
      const em = server.app.deps.storage.fork();
      assert.equal(await em.count(OrgSsoLoginState, { orgId: org.id }), 1);
      assert.equal(await em.count(OrgSsoIdentity, { orgId: org.id }), 1);
      await over('rest', 'delete_organization', { id: org.id });
      assert.equal(await em.count(OrgOidcConnection, { orgId: org.id }), 0);
      assert.equal(await em.count(OrgSsoIdentity, { orgId: org.id }), 0);
      assert.equal(await em.count(OrgSsoLoginState, { orgId: org.id }), 0);
    });
  });
}
