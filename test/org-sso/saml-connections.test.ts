/**
 * Organization SAML connections over REST, GraphQL and gRPC (docs/operations.md, "Org SSO connections";
 * docs/api-overview.md#resources-and-fields, "Upstream org connections"): create, read by connection id or by organization id (exactly one),
 * update, delete; one per organization; the IdP certificate checked (X.509, not expired, RSA of 2048 bits
 * or more) and answered as its fingerprint only, kept by an update that omits it and replaced by one that
 * gives it; the SP's entity id and ACS address in the answer; the org-admin rule on every operation; and
 * the SP metadata document served per organization.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { orgCallersOnServer, PROTOCOLS, type As, type SignedInUser } from '../support/org-callers.ts';
import { makeCertificate } from '../support/saml-idp.ts';

const CANONICAL = 'http://127.0.0.1:8080';
const CERT = makeCertificate({ cn: 'idp.example.com' });
const CERT_2 = makeCertificate({ cn: 'idp-rollover.example.com' });
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

describe('organization SAML connections', () => {
  const callers = orgCallersOnServer();
  const { server } = callers;
  const { call, over } = callers;

  const connectionInput = (orgId: string, extra: Record<string, unknown> = {}) => ({
    org_id: orgId, idp_entity_id: 'https://idp.example.com/saml', idp_sso_url: 'https://idp.example.com/sso?tenant=acme', idp_certificate: CERT.certificatePem, ...extra,
  });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: create, read both ways, update, delete; the certificate answered by fingerprint and kept unless replaced`, async () => {
      const org = await over(protocol, 'create_organization', { name: `saml-crud-${protocol}` });
      const created = await over(protocol, 'create_org_saml_connection', connectionInput(org.id, { allowed_email_domains: ['Example.COM'], email_attribute: 'mail' }));
      assert.equal(created.org_id, org.id);
      assert.equal(created.idp_entity_id, 'https://idp.example.com/saml');
      assert.equal(created.idp_sso_url, 'https://idp.example.com/sso?tenant=acme');
      assert.equal(created.idp_certificates.length, 1);
      assert.equal(created.idp_certificates[0].fingerprint_sha256, fingerprint(CERT.certificatePem));
      assert.equal(created.idp_certificates[0].subject, 'CN=idp.example.com');
      assert.ok(created.idp_certificates[0].not_after > Date.now() / 1000);
      assert.equal(created.email_attribute, 'mail');
      assert.equal(created.given_name_attribute ?? undefined, undefined, 'defaults are not spelled out');
      assert.deepEqual(created.allowed_email_domains, ['example.com']);
      assert.equal(created.enabled, true);
      assert.equal(created.sp_entity_id, `${CANONICAL}/sso/saml/saml-crud-${protocol}/metadata`);
      assert.equal(created.sp_acs_url, `${CANONICAL}/sso/saml/saml-crud-${protocol}/acs`);

      assert.deepEqual(await over(protocol, 'org_saml_connection', { id: created.id }), created);
      assert.deepEqual(await over(protocol, 'org_saml_connection', { org_id: org.id }), created);

      const updated = await over(protocol, 'update_org_saml_connection', { id: created.id, idp_sso_url: 'https://idp.example.com/sso2', enabled: false });
      assert.equal(updated.idp_sso_url, 'https://idp.example.com/sso2');
      assert.equal(updated.enabled, false);
      assert.deepEqual(updated.idp_certificates, created.idp_certificates, 'an update without a certificate keeps it');
      assert.equal(updated.idp_entity_id, created.idp_entity_id, 'omitted fields stay');
      assert.equal(updated.email_attribute, 'mail');

      // A rollover: two PEM blocks replace the one held.
      const rolled = await over(protocol, 'update_org_saml_connection', { id: created.id, idp_certificate: `${CERT_2.certificatePem}\n${CERT.certificatePem}` });
      assert.deepEqual(rolled.idp_certificates.map((c: any) => c.fingerprint_sha256), [fingerprint(CERT_2.certificatePem), fingerprint(CERT.certificatePem)]);
      const replaced = await over(protocol, 'update_org_saml_connection', { id: created.id, idp_certificate: CERT_2.certificatePem });
      assert.deepEqual(replaced.idp_certificates.map((c: any) => c.fingerprint_sha256), [fingerprint(CERT_2.certificatePem)]);

      const deleted = await over(protocol, 'delete_org_saml_connection', { id: created.id });
      assert.match(deleted.message, /deleted/);
      const gone = await call(protocol, 'org_saml_connection', { id: created.id });
      assert.equal('error' in gone && gone.error, 'not_found');
      const none = await call(protocol, 'org_saml_connection', { org_id: org.id });
      assert.equal('error' in none && none.error, 'not_found');
    });

    test(`${protocol}: one SAML connection per organization; get takes exactly one of id and org_id`, async () => {
      const org = await over(protocol, 'create_organization', { name: `saml-one-${protocol}` });
      await over(protocol, 'create_org_saml_connection', connectionInput(org.id));
      const second = await call(protocol, 'create_org_saml_connection', connectionInput(org.id, { idp_entity_id: 'https://other.example.com' }));
      assert.equal('error' in second && second.error, 'already_exists');
      const both = await call(protocol, 'org_saml_connection', { id: 'x', org_id: org.id });
      assert.equal('error' in both && both.error, 'invalid_argument');
      const neither = await call(protocol, 'org_saml_connection', {});
      assert.equal('error' in neither && neither.error, 'invalid_argument');
      const missingOrg = await call(protocol, 'create_org_saml_connection', connectionInput('00000000-0000-4000-8000-000000000000'));
      assert.equal('error' in missingOrg && missingOrg.error, 'not_found');
    });
  }

  test('certificates are refused when unreadable, expired, weak or not RSA; the bare base64 of IdP metadata is taken', async () => {
    const org = await over('rest', 'create_organization', { name: 'saml-certs' });
    const hour = 3600_000;
    const expired = makeCertificate({ notBefore: new Date(Date.now() - 48 * hour), notAfter: new Date(Date.now() - hour) });
    const weak = makeCertificate({ subjectKey: generateKeyPairSync('rsa', { modulusLength: 1024 }) });
    const ec = makeCertificate({ subjectKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }) });
    const cases: Array<[string, string, RegExp]> = [
      ['garbage', 'not a certificate at all', /not a PEM|readable/],
      ['broken PEM', '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----', /readable/],
      ['expired', expired.certificatePem, /expired/],
      ['RSA 1024', weak.certificatePem, /RSA of at least 2048/],
      ['EC', ec.certificatePem, /RSA of at least 2048/],
      ['too many', Array(5).fill(CERT.certificatePem).join('\n'), /at most 4/],
    ];
    for (const [name, pem, message] of cases) {
      const outcome = await call('rest', 'create_org_saml_connection', connectionInput(org.id, { idp_certificate: pem }));
      assert.ok('error' in outcome, name);
      assert.equal(outcome.error, 'invalid_argument', name);
      assert.match(outcome.message, message, name);
    }
    const bare = CERT.certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\n/g, '');
    const created = await over('rest', 'create_org_saml_connection', connectionInput(org.id, { idp_certificate: bare }));
    assert.equal(created.idp_certificates[0].fingerprint_sha256, fingerprint(CERT.certificatePem));
    const expiredUpdate = await call('rest', 'update_org_saml_connection', { id: created.id, idp_certificate: expired.certificatePem });
    assert.equal('error' in expiredUpdate && expiredUpdate.error, 'invalid_argument');
    assert.equal((await over('rest', 'org_saml_connection', { id: created.id })).idp_certificates[0].fingerprint_sha256, fingerprint(CERT.certificatePem), 'a refused update changes nothing');
  });

  test('the IdP SSO address must be https without credentials, fragment or SAML parameters; names without spaces', async () => {
    const org = await over('rest', 'create_organization', { name: 'saml-urls' });
    for (const url of ['http://idp.example.com/sso', 'https://u:p@idp.example.com/sso', 'https://idp.example.com/sso#x', 'https://idp.example.com/sso?SAMLRequest=x', 'javascript:alert(1)', 'not a url']) {
      const outcome = await call('rest', 'create_org_saml_connection', connectionInput(org.id, { idp_sso_url: url }));
      assert.equal('error' in outcome && outcome.error, 'invalid_argument', url);
    }
    for (const extra of [{ idp_entity_id: 'has space' }, { email_attribute: 'e mail' }]) {
      const outcome = await call('rest', 'create_org_saml_connection', connectionInput(org.id, extra));
      assert.equal('error' in outcome && outcome.error, 'invalid_argument', JSON.stringify(extra));
    }
  });

  test('the SP metadata names our entity id, the HTTP-POST ACS and WantAssertionsSigned, for organizations with a SAML connection only', async () => {
    const org = await over('rest', 'create_organization', { name: 'saml-meta' });
    const before = await fetch(`${server().baseUrl}/sso/saml/saml-meta/metadata`);
    assert.equal(before.status, 404, 'no connection, no metadata');
    await over('rest', 'create_org_saml_connection', connectionInput(org.id, { enabled: false }));
    const res = await fetch(`${server().baseUrl}/sso/saml/saml-meta/metadata`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/samlmetadata\+xml/);
    const xml = await res.text();
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http:\/\/127.0.0.1:8080\/sso\/saml\/saml-meta\/metadata">/);
    assert.match(xml, /<md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">/);
    assert.match(xml, /<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="http:\/\/127.0.0.1:8080\/sso\/saml\/saml-meta\/acs" index="0" isDefault="true"\/>/);
    assert.equal((await fetch(`${server().baseUrl}/sso/saml/no-such-org/metadata`)).status, 404);
    await over('rest', 'update_organization', { id: org.id, enabled: false });
    assert.equal((await fetch(`${server().baseUrl}/sso/saml/saml-meta/metadata`)).status, 404, 'a disabled organization publishes nothing');
  });

  describe('the org-admin rule on every SAML connection operation', () => {
    let home: { orgId: string; name: string; admin: SignedInUser };
    let other: { orgId: string; name: string; admin: SignedInUser };
    let outsider: SignedInUser;
    let member: SignedInUser;
    let connectionId: string;
    before(async () => {
      ({ home, other, outsider, member } = await callers.orgAdminCast('saml'));
      connectionId = (await over('rest', 'create_org_saml_connection', connectionInput(home.orgId))).id;
    });

    const attempts = (): Array<[string, Record<string, unknown>]> => [
      ['create_org_saml_connection', connectionInput(home.orgId, { idp_entity_id: 'https://evil.example.com' })],
      ['update_org_saml_connection', { id: connectionId, idp_sso_url: 'https://evil.example.com/sso' }],
      ['update_org_saml_connection', { id: '00000000-0000-4000-8000-000000000000', enabled: false }],
      ['org_saml_connection', { id: connectionId }],
      ['org_saml_connection', { org_id: home.orgId }],
      ['org_saml_connection', { id: '00000000-0000-4000-8000-000000000000' }],
      ['delete_org_saml_connection', { id: connectionId }],
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
        const still = await over('rest', 'org_saml_connection', { id: connectionId });
        assert.equal(still.idp_sso_url, 'https://idp.example.com/sso?tenant=acme', 'nothing changed');
      });
    }

    test("the organization's own org-admin creates, reads, updates and deletes it", async () => {
      const own = await callers.orgWithAdmin('saml-own');
      const as = { bearer: own.admin.token };
      const created = await over('graphql', 'create_org_saml_connection', connectionInput(own.orgId), as);
      assert.equal((await over('grpc', 'org_saml_connection', { org_id: own.orgId }, as)).id, created.id);
      assert.equal((await over('rest', 'update_org_saml_connection', { id: created.id, given_name_attribute: 'first' }, as)).given_name_attribute, 'first');
      assert.match((await over('rest', 'delete_org_saml_connection', { id: created.id }, as)).message, /deleted/);
    });
  });

  test('deleting the organization deletes its SAML connection', async () => {
    const org = await over('rest', 'create_organization', { name: 'saml-doomed' });
    const created = await over('rest', 'create_org_saml_connection', connectionInput(org.id));
    await over('rest', 'delete_organization', { id: org.id });
    const rows = await server().app.deps.storage.fork().getConnection().execute('select id from org_saml_connections where id = ?', [created.id]);
    assert.equal(rows.length, 0);
  });
});
