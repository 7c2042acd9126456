/**
 * ACS and SLO addresses of a developer's SP on this machine: the IdP never connects to them (the browser
 * posts or is redirected there), so plain http is allowed for loopback hosts (localhost, 127.0.0.0/8,
 * [::1]), as RFC 8252 sections 7.3 and 8.3 allow it for native apps, and https is required elsewhere
 * whatever --org-sso-allow-private-addresses says; https to a private address is fine (nothing is fetched).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { orgCallersOnServer, PROTOCOLS } from '../support/org-callers.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { browserSession, idpMetadata, metadataCertificates, nodeSamlSp, signUp, visit } from './idp-browser.ts';

const LOOPBACK = ['http://localhost:8000/saml/acs', 'http://127.0.0.1:3000/acs', 'http://127.5.6.7/acs', 'http://[::1]:8080/acs', 'http://LOCALHOST:9/acs'];
const NOT_LOOPBACK = ['http://sp.example.com/acs', 'http://10.0.0.5/acs', 'http://192.168.1.10:8080/acs', 'http://localhost.example.com/acs', 'http://127.0.0.1.nip.io/acs', 'http://[::2]/acs', 'http://0.0.0.0/acs'];
const PRIVATE_HTTPS = ['https://10.0.0.5/acs', 'https://192.168.1.10:8443/saml/acs', 'https://intranet/acs'];

describe('SAML SP addresses on loopback', () => {
  const { call, over, server } = orgCallersOnServer();

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: http ACS and SLO URLs on loopback are accepted without --org-sso-allow-private-addresses; other http is refused`, async () => {
      const org = await over(protocol, 'create_organization', { name: `loopback-${protocol}` });
      const spInput = (entity: string, extra: Record<string, unknown>) => ({ org_id: org.id, name: 'Dev', entity_id: entity, ...extra });
      for (const url of [...LOOPBACK, ...PRIVATE_HTTPS]) {
        const created = await call(protocol, 'create_saml_service_provider', spInput(`urn:${randomBytes(4).toString('hex')}`, { acs_endpoints: [{ url }], slo_url: url.replace(/acs$/, 'slo') }));
        assert.ok('ok' in created, `${url}: ${JSON.stringify(created)}`);
        assert.equal(created.ok.acs_endpoints[0].url, new URL(url).href);
        assert.equal(created.ok.slo_url, new URL(url.replace(/acs$/, 'slo')).href);
      }
      const existing = await over(protocol, 'create_saml_service_provider', spInput('urn:existing', { acs_endpoints: [{ url: 'https://sp.example.com/acs' }] }));
      const moved = await over(protocol, 'update_saml_service_provider', { id: existing.id, acs_endpoints: [{ url: 'http://localhost:4000/acs' }], slo_url: 'http://127.0.0.1:4000/slo' });
      assert.equal(moved.acs_endpoints[0].url, 'http://localhost:4000/acs');
      assert.equal(moved.slo_url, 'http://127.0.0.1:4000/slo');
      for (const url of NOT_LOOPBACK) {
        for (const input of [{ acs_endpoints: [{ url }] }, { acs_endpoints: [{ url: 'https://sp.example.com/acs' }], slo_url: url }]) {
          const refused = await call(protocol, 'create_saml_service_provider', spInput('urn:refused', input));
          assert.ok('error' in refused, `${url} ${JSON.stringify(input)}`);
          assert.equal(refused.error, 'invalid_argument');
          assert.match(refused.message, /https/, url);
        }
        const update = await call(protocol, 'update_saml_service_provider', { id: existing.id, acs_endpoints: [{ url }] });
        assert.ok('error' in update && update.error === 'invalid_argument', url);
      }
    });
  }

  test('a signed-in member is sent to a loopback ACS: the auto-posting form targets it', async () => {
    const org = await over('rest', 'create_organization', { name: 'loopback-sso' });
    const email = `loopback-${randomBytes(4).toString('hex')}@example.com`;
    await over('rest', 'add_org_member', { org_id: org.id, user_id: await signUp(server(), email) });
    const acsUrl = 'http://localhost:3000/saml/acs';
    await over('rest', 'create_saml_service_provider', { org_id: org.id, name: 'Dev', entity_id: 'http://localhost:3000/saml/metadata', acs_endpoints: [{ url: acsUrl }] });
    const setup = { org: 'loopback-sso', entityId: 'http://localhost:3000/saml/metadata', acsUrl, idpCertificates: metadataCertificates(await idpMetadata(server(), 'loopback-sso')) };
    const sp = nodeSamlSp(setup);
    const answer = await visit(server(), await sp.getAuthorizeUrlAsync('', undefined, {}), { cookie: await browserSession(server(), email) });
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.action, acsUrl);
    assert.match(answer.csp ?? '', /form-action http:\/\/localhost:3000/);
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: answer.fields.SAMLResponse! });
    assert.equal(profile!.nameID, email);
  });
});

describe('SAML SP addresses with --org-sso-allow-private-addresses=true', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--org-sso-allow-private-addresses=true']);
  });
  after(async () => server?.close());

  test('the flag, which is about addresses this server fetches, does not allow http to a host other than loopback', async () => {
    const admin = (name: string, input: Record<string, unknown>) => adminClient(server).call(name, input);
    const org = await admin('create_organization', { name: 'loopback-flag' });
    assert.equal(org.status, 200);
    const refused = await admin('create_saml_service_provider', { org_id: org.body.id, name: 'Dev', entity_id: 'urn:dev', acs_endpoints: [{ url: 'http://sp.example.com/acs' }] });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /https/);
    const loopback = await admin('create_saml_service_provider', { org_id: org.body.id, name: 'Dev', entity_id: 'urn:dev', acs_endpoints: [{ url: 'http://127.0.0.1:3000/acs' }] });
    assert.equal(loopback.status, 200, JSON.stringify(loopback.body));
  });
});
