/**
 * Organization OIDC connections over REST, GraphQL and gRPC (docs/operations.md, "Org SSO connections";
 * docs/api-overview.md#resources-and-fields, "Upstream org connections"): create, read by connection id or by organization id (exactly one),
 * update, delete; one connection per organization; the client secret sealed at rest (read from the raw
 * row), never in an answer, kept by an update that omits it and replaced by one that gives it; the issuer
 * held to https and public addresses while --org-sso-allow-private-addresses is off; and the org-admin
 * rule on every operation.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { orgCallersOnServer, PROTOCOLS, type As, type SignedInUser } from '../support/org-callers.ts';

const SECRET = 'idp-client-secret-0123456789-abcdef';

describe('organization OIDC connections', () => {
  const callers = orgCallersOnServer();
  const { server } = callers;
  const { call, over } = callers;

  /** The stored row as the database holds it, read with plain SQL (no entity mapping). */
  async function rawRow(id: string): Promise<Record<string, unknown>> {
    const rows = await server().app.deps.storage.fork().getConnection().execute('select * from org_oidc_connections where id = ?', [id]);
    assert.equal(rows.length, 1);
    return rows[0] as Record<string, unknown>;
  }

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: create, read both ways, update, delete; the secret is sealed and never answered`, async () => {
      const org = await over(protocol, 'create_organization', { name: `crud-${protocol}` });
      const created = await over(protocol, 'create_org_oidc_connection', {
        org_id: org.id, issuer: 'https://idp.example.com/', client_id: 'portcullis', client_secret: SECRET, allowed_email_domains: ['Example.COM'],
      });
      assert.equal(created.org_id, org.id);
      assert.equal(created.issuer, 'https://idp.example.com', 'trailing slash dropped: discovery appends the well-known path');
      assert.equal(created.has_client_secret, true);
      assert.deepEqual(created.scopes, ['openid', 'email', 'profile']);
      assert.deepEqual(created.allowed_email_domains, ['example.com']);
      assert.equal(created.enabled, true);
      assert.ok(!JSON.stringify(created).includes(SECRET), 'the answer never carries the secret');
      assert.ok(!('client_secret' in created));

      const raw = await rawRow(created.id);
      assert.equal(typeof raw.client_secret, 'string');
      assert.ok(!String(raw.client_secret).includes(SECRET), 'the secret is not stored in clear');
      assert.equal(server().app.deps.sealer.open(String(raw.client_secret)), SECRET, 'it is sealed with the server key');

      const byId = await over(protocol, 'org_oidc_connection', { id: created.id });
      const byOrg = await over(protocol, 'org_oidc_connection', { org_id: org.id });
      assert.deepEqual(byId, created);
      assert.deepEqual(byOrg, created);

      const renamed = await over(protocol, 'update_org_oidc_connection', { id: created.id, client_id: 'portcullis-2', enabled: false });
      assert.equal(renamed.client_id, 'portcullis-2');
      assert.equal(renamed.enabled, false);
      assert.equal(renamed.has_client_secret, true);
      assert.equal(renamed.issuer, 'https://idp.example.com', 'omitted fields stay');
      assert.deepEqual(renamed.allowed_email_domains, ['example.com']);
      assert.equal(server().app.deps.sealer.open(String((await rawRow(created.id)).client_secret)), SECRET, 'an update without a secret keeps it');

      await over(protocol, 'update_org_oidc_connection', { id: created.id, client_secret: 'a-new-secret-value' });
      assert.equal(server().app.deps.sealer.open(String((await rawRow(created.id)).client_secret)), 'a-new-secret-value', 'a new secret replaces it');

      const deleted = await over(protocol, 'delete_org_oidc_connection', { id: created.id });
      assert.match(deleted.message, /deleted/);
      const gone = await call(protocol, 'org_oidc_connection', { id: created.id });
      assert.equal('error' in gone && gone.error, 'not_found');
      const none = await call(protocol, 'org_oidc_connection', { org_id: org.id });
      assert.equal('error' in none && none.error, 'not_found');
    });

    test(`${protocol}: one connection per organization; get takes exactly one of id and org_id`, async () => {
      const org = await over(protocol, 'create_organization', { name: `one-${protocol}` });
      await over(protocol, 'create_org_oidc_connection', { org_id: org.id, issuer: 'https://idp.example.com', client_id: 'a' });
      const second = await call(protocol, 'create_org_oidc_connection', { org_id: org.id, issuer: 'https://other.example.com', client_id: 'b' });
      assert.equal('error' in second && second.error, 'already_exists');
      const both = await call(protocol, 'org_oidc_connection', { id: 'x', org_id: org.id });
      assert.equal('error' in both && both.error, 'invalid_argument');
      const neither = await call(protocol, 'org_oidc_connection', {});
      assert.equal('error' in neither && neither.error, 'invalid_argument');
      const missingOrg = await call(protocol, 'create_org_oidc_connection', { org_id: '00000000-0000-4000-8000-000000000000', issuer: 'https://idp.example.com', client_id: 'a' });
      assert.equal('error' in missingOrg && missingOrg.error, 'not_found');
    });
  }

  test('issuers that would make the server reach internal addresses, or leave https, are refused', async () => {
    const org = await over('rest', 'create_organization', { name: 'ssrf' });
    for (const issuer of [
      'http://idp.example.com', 'https://127.0.0.1', 'https://localhost:8443', 'https://app.localhost', 'https://[::1]', 'https://10.0.0.8',
      'https://169.254.169.254/latest', 'https://[::ffff:127.0.0.1]', 'https://192.168.1.1', 'https://user:pw@idp.example.com',
      'https://idp.example.com/#x', 'https://idp.example.com/?a=1', 'file:///etc/passwd', 'not a url',
    ]) {
      const outcome = await call('rest', 'create_org_oidc_connection', { org_id: org.id, issuer, client_id: 'a' });
      assert.equal('error' in outcome && outcome.error, 'invalid_argument', issuer);
    }
    const created = await over('rest', 'create_org_oidc_connection', { org_id: org.id, issuer: 'https://idp.example.com', client_id: 'a' });
    const repointed = await call('rest', 'update_org_oidc_connection', { id: created.id, issuer: 'https://127.0.0.1:9000' });
    assert.equal('error' in repointed && repointed.error, 'invalid_argument');
    for (const scopes of [['email'], ['openid', 'bad scope']]) {
      const outcome = await call('rest', 'update_org_oidc_connection', { id: created.id, scopes });
      assert.equal('error' in outcome && outcome.error, 'invalid_argument', JSON.stringify(scopes));
    }
    const domains = await call('rest', 'update_org_oidc_connection', { id: created.id, allowed_email_domains: ['not a domain'] });
    assert.equal('error' in domains && domains.error, 'invalid_argument');
  });

  describe('the org-admin rule on every connection operation', () => {
    let home: { orgId: string; name: string; admin: SignedInUser };
    let other: { orgId: string; name: string; admin: SignedInUser };
    let outsider: SignedInUser;
    let member: SignedInUser;
    let connectionId: string;
    before(async () => {
      ({ home, other, outsider, member } = await callers.orgAdminCast('sso'));
      connectionId = (await over('rest', 'create_org_oidc_connection', { org_id: home.orgId, issuer: 'https://idp.example.com', client_id: 'home', client_secret: SECRET })).id;
    });

    const attempts = (): Array<[string, Record<string, unknown>]> => [
      ['create_org_oidc_connection', { org_id: home.orgId, issuer: 'https://evil.example.com', client_id: 'x' }],
      ['update_org_oidc_connection', { id: connectionId, issuer: 'https://evil.example.com' }],
      ['update_org_oidc_connection', { id: '00000000-0000-4000-8000-000000000000', client_id: 'x' }],
      ['org_oidc_connection', { id: connectionId }],
      ['org_oidc_connection', { org_id: home.orgId }],
      ['org_oidc_connection', { id: '00000000-0000-4000-8000-000000000000' }],
      ['delete_org_oidc_connection', { id: connectionId }],
    ];

    for (const protocol of PROTOCOLS) {
      test(`${protocol}: outsiders, another organization's admin and plain members are refused alike; anonymous is unauthenticated`, async () => {
        const refused: Array<[string, As]> = [['outsider', { bearer: outsider.token }], ['other org-admin', { bearer: other.admin.token }], ['member', { bearer: member.token }]];
        for (const [name, input] of attempts()) {
          for (const [who, as] of refused) {
            const outcome = await call(protocol, name, input, as);
            assert.equal('error' in outcome && outcome.error, 'permission_denied', `${who} ${name} ${JSON.stringify(input)}`);
          }
          const anonymous = await call(protocol, name, input, 'anonymous');
          assert.equal('error' in anonymous && anonymous.error, 'unauthenticated', `anonymous ${name}`);
        }
        const still = await over('rest', 'org_oidc_connection', { id: connectionId });
        assert.equal(still.issuer, 'https://idp.example.com', 'nothing changed');
        assert.equal(still.client_id, 'home');
      });
    }

    test('the organization\'s own org-admin reads and updates it, without the secret', async () => {
      const read = await over('grpc', 'org_oidc_connection', { org_id: home.orgId }, { bearer: home.admin.token });
      assert.equal(read.id, connectionId);
      assert.equal(read.has_client_secret, true);
      assert.ok(!JSON.stringify(read).includes(SECRET));
      const updated = await over('graphql', 'update_org_oidc_connection', { id: connectionId, client_id: 'home-2' }, { bearer: home.admin.token });
      assert.equal(updated.client_id, 'home-2');
    });

    test('the admin of a disabled organization loses the connection operations', async () => {
      const org = await callers.orgWithAdmin('sso-suspended');
      const created = await over('rest', 'create_org_oidc_connection', { org_id: org.orgId, issuer: 'https://idp.example.com', client_id: 'x' }, { bearer: org.admin.token });
      await over('rest', 'update_organization', { id: org.orgId, enabled: false });
      const outcome = await call('rest', 'org_oidc_connection', { id: created.id }, { bearer: org.admin.token });
      assert.equal('error' in outcome && outcome.error, 'permission_denied');
    });
  });

  test('deleting the organization deletes its connection', async () => {
    const org = await over('rest', 'create_organization', { name: 'sso-doomed' });
    const created = await over('rest', 'create_org_oidc_connection', { org_id: org.id, issuer: 'https://idp.example.com', client_id: 'x', client_secret: SECRET });
    await over('rest', 'delete_organization', { id: org.id });
    const rows = await server().app.deps.storage.fork().getConnection().execute('select id from org_oidc_connections where id = ?', [created.id]);
    assert.equal(rows.length, 0);
  });
});
