/**
 * SAML service providers over REST, GraphQL and gRPC (docs/api-overview.md#resources-and-fields, "SAML service provider",
 * docs/operations.md, "SAML IdP"): create, read, list by page, update, delete; entity id unique per organization; fields
 * checked (ACS addresses, binding, certificate, attribute mapping, NameID format); the org-admin rule; and
 * import_saml_sp_metadata: prefill fields from pasted metadata, nothing stored, DOCTYPE and entities
 * (XXE, billion laughs) refused, a size bound.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { orgCallersOnServer, PROTOCOLS, type As, type SignedInUser } from '../support/org-callers.ts';
import { makeCertificate } from '../support/saml-idp.ts';

const CERT = makeCertificate({ cn: 'sp.example.com' });
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const bare = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

function spMetadata(entityId: string, extra = ''): string {
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:SPSSODescriptor AuthnRequestsSigned="true" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="encryption"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>MIIBbogus</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>
${bare(CERT.certificatePem)}
    </ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="${POST}" Location="https://sp.example.com/slo"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact" Location="https://sp.example.com/artifact" index="0"/>
    <md:AssertionConsumerService Binding="${POST}" Location="https://sp.example.com/acs" index="1" isDefault="true"/>
    <md:AssertionConsumerService Binding="${POST}" Location="https://sp.example.com/acs2" index="2"/>
    ${extra}
  </md:SPSSODescriptor>
</md:EntityDescriptor>`;
}

describe('SAML service providers', () => {
  const callers = orgCallersOnServer();
  const { server, call, over } = callers;

  const spInput = (orgId: string, extra: Record<string, unknown> = {}) => ({
    org_id: orgId, name: 'Wiki', entity_id: 'https://sp.example.com/metadata', acs_endpoints: [{ url: 'https://sp.example.com/acs' }], ...extra,
  });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: create, read, list by page, update, delete`, async () => {
      const org = await over(protocol, 'create_organization', { name: `idp-sp-${protocol}` });
      const created = await over(protocol, 'create_saml_service_provider', spInput(org.id, {
        acs_endpoints: [{ url: 'https://sp.example.com/acs' }, { url: 'https://sp.example.com/acs2', binding: 'HTTP-POST', is_default: true }],
        certificate: CERT.certificatePem,
        attribute_mapping: [{ field: 'email', attribute: 'mail' }, { field: 'given_name', attribute: 'givenName' }],
        name_id_format: 'persistent',
      }));
      assert.equal(created.org_id, org.id);
      assert.equal(created.name, 'Wiki');
      assert.equal(created.entity_id, 'https://sp.example.com/metadata');
      assert.deepEqual(created.acs_endpoints, [
        { url: 'https://sp.example.com/acs', binding: POST, index: 0, is_default: false },
        { url: 'https://sp.example.com/acs2', binding: POST, index: 1, is_default: true },
      ]);
      assert.equal(created.certificate_fingerprint_sha256, new X509Certificate(CERT.certificatePem).fingerprint256);
      assert.deepEqual(created.attribute_mapping, [{ field: 'email', attribute: 'mail' }, { field: 'given_name', attribute: 'givenName' }]);
      assert.equal(created.name_id_format, 'persistent');
      assert.equal(created.active, true);
      assert.deepEqual(await over(protocol, 'saml_service_provider', { id: created.id }), created);

      const second = await over(protocol, 'create_saml_service_provider', spInput(org.id, { name: 'CRM', entity_id: 'urn:crm' }));
      assert.equal(second.name_id_format, 'emailAddress', 'the default format');
      assert.equal(second.acs_endpoints[0].is_default, true, 'a single endpoint is the default');
      const page1 = await over(protocol, 'saml_service_providers', { org_id: org.id, pagination: { page: 1, limit: 1 } });
      assert.equal(page1.pagination.total, 2);
      assert.deepEqual(page1.service_providers.map((sp: any) => sp.id), [second.id]);
      const page2 = await over(protocol, 'saml_service_providers', { org_id: org.id, pagination: { page: 2, limit: 1 } });
      assert.deepEqual(page2.service_providers.map((sp: any) => sp.id), [created.id]);

      const updated = await over(protocol, 'update_saml_service_provider', { id: created.id, name: 'Wiki 2', active: false, remove_certificate: true, clear_attribute_mapping: true });
      assert.equal(updated.name, 'Wiki 2');
      assert.equal(updated.active, false);
      assert.equal(updated.certificate ?? undefined, undefined);
      assert.deepEqual(updated.attribute_mapping, []);
      assert.deepEqual(updated.acs_endpoints, created.acs_endpoints, 'omitted fields stay');
      assert.equal(updated.entity_id, created.entity_id);

      const taken = await call(protocol, 'update_saml_service_provider', { id: second.id, entity_id: created.entity_id });
      assert.equal('error' in taken && taken.error, 'already_exists');
      const duplicate = await call(protocol, 'create_saml_service_provider', spInput(org.id));
      assert.equal('error' in duplicate && duplicate.error, 'already_exists');

      assert.match((await over(protocol, 'delete_saml_service_provider', { id: created.id })).message, /deleted/);
      const gone = await call(protocol, 'saml_service_provider', { id: created.id });
      assert.equal('error' in gone && gone.error, 'not_found');
    });
  }

  test('one entity id may serve two organizations; fields are checked', async () => {
    const a = await over('rest', 'create_organization', { name: 'idp-sp-a' });
    const b = await over('rest', 'create_organization', { name: 'idp-sp-b' });
    await over('rest', 'create_saml_service_provider', spInput(a.id));
    await over('rest', 'create_saml_service_provider', spInput(b.id));
    const expired = makeCertificate({ notBefore: new Date(Date.now() - 7200_000), notAfter: new Date(Date.now() - 3600_000) });
    const weak = makeCertificate({ subjectKey: generateKeyPairSync('rsa', { modulusLength: 1024 }) });
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['http ACS', { acs_endpoints: [{ url: 'http://sp.example.com/acs' }] }, /https/],
      ['javascript ACS', { acs_endpoints: [{ url: 'javascript:alert(1)' }] }, /https/],
      ['credentials', { acs_endpoints: [{ url: 'https://u:p@sp.example.com/acs' }] }, /credentials/],
      ['no ACS', { acs_endpoints: [] }, /at least one|acs_endpoints/],
      ['index twice', { acs_endpoints: [{ url: 'https://sp.example.com/1', index: 3 }, { url: 'https://sp.example.com/2', index: 3 }] }, /index once/],
      ['two defaults', { acs_endpoints: [{ url: 'https://sp.example.com/1', is_default: true }, { url: 'https://sp.example.com/2', is_default: true }] }, /one default/],
      ['redirect binding', { acs_endpoints: [{ url: 'https://sp.example.com/acs', binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' }] }, /HTTP-POST/],
      ['entity id with space', { entity_id: 'has space' }, /entity_id/],
      ['unknown field', { attribute_mapping: [{ field: 'password_hash', attribute: 'x' }] }, /unknown field/],
      ['format', { name_id_format: 'transient' }, /name_id_format/],
      ['http SLO', { slo_url: 'http://sp.example.com/slo' }, /slo_url: must be https/],
      ['expired certificate', { certificate: expired.certificatePem }, /expired/],
      ['weak certificate', { certificate: weak.certificatePem }, /2048/],
      ['garbage certificate', { certificate: 'not a certificate' }, /certificate/],
    ];
    for (const [name, extra, message] of cases) {
      const outcome = await call('rest', 'create_saml_service_provider', spInput(a.id, { entity_id: 'urn:new', ...extra }));
      assert.ok('error' in outcome, name);
      assert.equal(outcome.error, 'invalid_argument', name);
      assert.match(outcome.message, message, name);
    }
  });

  test('import reads prefill fields from pasted metadata and stores nothing', async () => {
    const org = await over('rest', 'create_organization', { name: 'idp-sp-import' });
    for (const protocol of PROTOCOLS) {
      const prefill = await over(protocol, 'import_saml_sp_metadata', { org_id: org.id, metadata_xml: spMetadata('https://sp.example.com/metadata') });
      assert.equal(prefill.entity_id, 'https://sp.example.com/metadata');
      assert.deepEqual(prefill.acs_endpoints, [
        { url: 'https://sp.example.com/acs', binding: POST, index: 1, is_default: true },
        { url: 'https://sp.example.com/acs2', binding: POST, index: 2, is_default: false },
      ], `${protocol}: HTTP-POST endpoints only`);
      assert.equal(new X509Certificate(prefill.certificate).fingerprint256, new X509Certificate(CERT.certificatePem).fingerprint256, 'the signing certificate, not the encryption one');
      assert.deepEqual(prefill.name_id_formats, ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent']);
      assert.equal(prefill.authn_requests_signed, true);
      assert.equal(prefill.want_assertions_signed, true);
      assert.equal(prefill.slo_url, 'https://sp.example.com/slo');
    }
    const list = await over('rest', 'saml_service_providers', { org_id: org.id });
    assert.equal(list.pagination.total, 0, 'import creates no record');
    // The prefill feeds create as it is: the SP's own indexes are kept for AssertionConsumerServiceIndex.
    const prefill = await over('rest', 'import_saml_sp_metadata', { org_id: org.id, metadata_xml: spMetadata('https://sp.example.com/metadata') });
    const created = await over('grpc', 'create_saml_service_provider', {
      org_id: org.id, name: 'Imported', entity_id: prefill.entity_id, certificate: prefill.certificate,
      acs_endpoints: prefill.acs_endpoints.map((acs: any) => ({ url: acs.url, binding: acs.binding, is_default: acs.is_default, index: acs.index })),
    });
    assert.deepEqual(created.acs_endpoints, prefill.acs_endpoints);
  });

  test('import refuses DOCTYPE and entities (XXE, billion laughs), malformed XML, other documents and oversize input, and fetches nothing', async () => {
    const org = await over('rest', 'create_organization', { name: 'idp-sp-hostile' });
    let fetched = false;
    const http = await import('node:http');
    const trap = http.createServer((_req, res) => { fetched = true; res.end('x'); });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const trapUrl = `http://127.0.0.1:${(trap.address() as { port: number }).port}/evil.dtd`;
    try {
      const xxe = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY remote SYSTEM "${trapUrl}">]>${spMetadata('&xxe;&remote;').replace('<?xml version="1.0"?>', '')}`;
      const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>${spMetadata('&lol3;').replace('<?xml version="1.0"?>', '')}`;
      const external = `<?xml version="1.0"?><!doctype md SYSTEM "${trapUrl}">${spMetadata('urn:x').replace('<?xml version="1.0"?>', '')}`;
      const cases: Array<[string, string, RegExp]> = [
        ['XXE', xxe, /DOCTYPE/],
        ['billion laughs', laughs, /DOCTYPE/],
        ['external DTD', external, /DOCTYPE/],
        ['malformed', '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"><unclosed>', /well-formed/],
        ['not metadata', '<html><body>hi</body></html>', /EntityDescriptor/],
        ['IdP metadata only', '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="urn:idp"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>', /SPSSODescriptor/],
      ];
      for (const protocol of PROTOCOLS) {
        for (const [name, xml, message] of cases) {
          const outcome = await call(protocol, 'import_saml_sp_metadata', { org_id: org.id, metadata_xml: xml });
          assert.ok('error' in outcome, `${protocol} ${name}`);
          assert.equal(outcome.error, 'invalid_argument', `${protocol} ${name}`);
          assert.match(outcome.message, message, `${protocol} ${name}`);
          assert.doesNotMatch(outcome.message, /root:/, 'no file content echoed');
        }
      }
      const huge = spMetadata('urn:x', `<!-- ${'x'.repeat(300_000)} -->`);
      const oversize = await call('rest', 'import_saml_sp_metadata', { org_id: org.id, metadata_xml: huge });
      assert.equal('error' in oversize && oversize.error, 'invalid_argument');
      assert.equal(fetched, false, 'nothing was fetched');
    } finally {
      trap.close();
    }
  });

  describe('the org-admin rule on every service provider operation', () => {
    let home: { orgId: string; admin: SignedInUser };
    let other: { orgId: string; admin: SignedInUser };
    let outsider: SignedInUser;
    let spId: string;
    before(async () => {
      home = await callers.orgWithAdmin('idp-sp-home');
      other = await callers.orgWithAdmin('idp-sp-other');
      outsider = await callers.signedInUser();
      spId = (await over('rest', 'create_saml_service_provider', spInput(home.orgId))).id;
    });

    for (const protocol of PROTOCOLS) {
      test(`${protocol}: outsiders and another organization's admin are refused alike; anonymous is unauthenticated; the own org-admin may`, async () => {
        const attempts: Array<[string, Record<string, unknown>]> = [
          ['create_saml_service_provider', spInput(home.orgId, { entity_id: 'urn:evil' })],
          ['update_saml_service_provider', { id: spId, name: 'evil' }],
          ['update_saml_service_provider', { id: '00000000-0000-4000-8000-000000000000', name: 'evil' }],
          ['saml_service_provider', { id: spId }],
          ['saml_service_providers', { org_id: home.orgId }],
          ['import_saml_sp_metadata', { org_id: home.orgId, metadata_xml: spMetadata('urn:x') }],
          ['delete_saml_service_provider', { id: spId }],
        ];
        for (const [name, input] of attempts) {
          for (const [who, as] of [['outsider', { bearer: outsider.token }], ['other org-admin', { bearer: other.admin.token }]] as Array<[string, As]>) {
            const outcome = await call(protocol, name, input, as);
            assert.equal('error' in outcome && outcome.error, 'permission_denied', `${who} ${name}`);
          }
          const anonymous = await call(protocol, name, input, 'anonymous');
          assert.equal('error' in anonymous && anonymous.error, 'unauthenticated', `anonymous ${name}`);
        }
        const own = { bearer: home.admin.token };
        assert.equal((await over(protocol, 'saml_service_provider', { id: spId }, own)).name, 'Wiki', 'nothing changed');
        assert.equal((await over(protocol, 'saml_service_providers', { org_id: home.orgId }, own)).pagination.total, 1);
        const mine = await over(protocol, 'create_saml_service_provider', spInput(home.orgId, { entity_id: `urn:own-${protocol}` }), own);
        assert.equal((await over(protocol, 'update_saml_service_provider', { id: mine.id, name: 'Mine' }, own)).name, 'Mine');
        assert.match((await over(protocol, 'delete_saml_service_provider', { id: mine.id }, own)).message, /deleted/);
      });
    }
  });

  test('deleting the organization deletes its service providers and keys', async () => {
    const org = await over('rest', 'create_organization', { name: 'idp-sp-doomed' });
    await over('rest', 'create_saml_service_provider', spInput(org.id));
    await over('rest', 'saml_idp_keys', { org_id: org.id });
    await over('rest', 'delete_organization', { id: org.id });
    const connection = server().app.deps.storage.fork().getConnection();
    assert.equal((await connection.execute('select id from saml_service_providers where org_id = ?', [org.id])).length, 0);
    assert.equal((await connection.execute('select id from saml_idp_keys where org_id = ?', [org.id])).length, 0);
  });
});
