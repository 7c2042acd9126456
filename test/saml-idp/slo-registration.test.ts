/**
 * The SP's SingleLogoutService is registered with its binding (SAML 2.0 Bindings 3.4 HTTP-Redirect, 3.5
 * HTTP-POST): import_saml_sp_metadata keeps an SLO published by HTTP-Redirect only, as mod_auth_mellon's
 * metadata does (it was dropped before), and takes the first Redirect or POST one in the SP's order, its
 * ResponseLocation when given; create, update and read carry slo_binding over REST, GraphQL and gRPC.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orgCallersOnServer, PROTOCOLS } from '../support/org-callers.ts';
import { makeCertificate } from '../support/saml-idp.ts';
import { mellonMetadata } from './sp-metadata-fixtures.ts';

const CERT = makeCertificate({ cn: 'mellon.example.com' });
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const SOAP = 'urn:oasis:names:tc:SAML:2.0:bindings:SOAP';

/** SP metadata whose only variable part is its SingleLogoutService elements. */
function withSlo(services: string): string {
  return `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sp.example.com/metadata">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${services}
    <md:AssertionConsumerService Binding="${POST}" Location="https://sp.example.com/acs" index="0"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>`;
}

describe('SAML SP single logout registration', () => {
  const { call, over } = orgCallersOnServer();

  test('import keeps a SingleLogoutService published by HTTP-Redirect only (mod_auth_mellon), with its binding', async () => {
    const org = await over('rest', 'create_organization', { name: 'slo-import-mellon' });
    for (const protocol of PROTOCOLS) {
      const prefill = await over(protocol, 'import_saml_sp_metadata', { org_id: org.id, metadata_xml: mellonMetadata('https://mellon.example.com/mellon', CERT.certificatePem) });
      assert.equal(prefill.entity_id, 'https://mellon.example.com/mellon/metadata');
      assert.equal(prefill.slo_url, 'https://mellon.example.com/mellon/logout', `${protocol}: the Redirect SLO is kept`);
      assert.equal(prefill.slo_binding, 'redirect', protocol);
      assert.deepEqual(prefill.acs_endpoints.map((acs: any) => acs.url), ['https://mellon.example.com/mellon/postResponse']);
    }
  });

  test('import takes the first Redirect or POST SingleLogoutService in the SP order, its ResponseLocation when given', async () => {
    const org = await over('rest', 'create_organization', { name: 'slo-import-order' });
    const cases: Array<[string, string, string | undefined, string | undefined]> = [
      ['redirect listed first', `<md:SingleLogoutService Binding="${REDIRECT}" Location="https://sp.example.com/slo-r"/><md:SingleLogoutService Binding="${POST}" Location="https://sp.example.com/slo-p"/>`, 'https://sp.example.com/slo-r', 'redirect'],
      ['post listed first', `<md:SingleLogoutService Binding="${POST}" Location="https://sp.example.com/slo-p"/><md:SingleLogoutService Binding="${REDIRECT}" Location="https://sp.example.com/slo-r"/>`, 'https://sp.example.com/slo-p', 'post'],
      ['SOAP (a back channel) skipped', `<md:SingleLogoutService Binding="${SOAP}" Location="https://sp.example.com/soap"/><md:SingleLogoutService Binding="${REDIRECT}" Location="https://sp.example.com/slo-r"/>`, 'https://sp.example.com/slo-r', 'redirect'],
      ['ResponseLocation', `<md:SingleLogoutService Binding="${REDIRECT}" Location="https://sp.example.com/slo" ResponseLocation="https://sp.example.com/slo-done"/>`, 'https://sp.example.com/slo-done', 'redirect'],
      ['none served', `<md:SingleLogoutService Binding="${SOAP}" Location="https://sp.example.com/soap"/>`, undefined, undefined],
    ];
    for (const [name, services, url, binding] of cases) {
      const prefill = await over('rest', 'import_saml_sp_metadata', { org_id: org.id, metadata_xml: withSlo(services) });
      assert.equal(prefill.slo_url ?? undefined, url, name);
      assert.equal(prefill.slo_binding ?? undefined, binding, name);
    }
  });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: slo_binding is stored with slo_url, read back, changed and removed with it`, async () => {
      const org = await over(protocol, 'create_organization', { name: `slo-binding-${protocol}` });
      const base = { org_id: org.id, name: 'Mellon', acs_endpoints: [{ url: 'https://mellon.example.com/mellon/postResponse' }], certificate: CERT.certificatePem };
      const redirect = await over(protocol, 'create_saml_service_provider', { ...base, entity_id: 'urn:redirect', slo_url: 'https://mellon.example.com/mellon/logout', slo_binding: 'redirect' });
      assert.equal(redirect.slo_binding, 'redirect');
      assert.deepEqual(await over(protocol, 'saml_service_provider', { id: redirect.id }), redirect);
      const urn = await over(protocol, 'create_saml_service_provider', { ...base, entity_id: 'urn:urn', slo_url: 'https://sp.example.com/slo', slo_binding: REDIRECT });
      assert.equal(urn.slo_binding, 'redirect', 'the binding URN is read as its short name');
      const urlOnly = await over(protocol, 'create_saml_service_provider', { ...base, entity_id: 'urn:post', slo_url: 'https://sp.example.com/slo' });
      assert.equal(urlOnly.slo_binding, 'post', 'a URL given alone is HTTP-POST, as before bindings were kept');
      const none = await over(protocol, 'create_saml_service_provider', { ...base, entity_id: 'urn:none' });
      assert.equal(none.slo_binding ?? undefined, undefined);

      const moved = await over(protocol, 'update_saml_service_provider', { id: redirect.id, slo_url: 'https://mellon.example.com/other/logout' });
      assert.equal(moved.slo_url, 'https://mellon.example.com/other/logout');
      assert.equal(moved.slo_binding, 'redirect', 'a new URL keeps the binding');
      const rebound = await over(protocol, 'update_saml_service_provider', { id: redirect.id, slo_binding: 'post' });
      assert.equal(rebound.slo_binding, 'post');
      assert.equal(rebound.slo_url, moved.slo_url);
      const removed = await over(protocol, 'update_saml_service_provider', { id: redirect.id, remove_slo_url: true });
      assert.equal(removed.slo_url ?? undefined, undefined);
      assert.equal(removed.slo_binding ?? undefined, undefined);

      const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
        ['create_saml_service_provider', { ...base, entity_id: 'urn:bad', slo_url: 'https://sp.example.com/slo', slo_binding: 'soap' }, /slo_binding/],
        ['create_saml_service_provider', { ...base, entity_id: 'urn:bad', slo_binding: 'redirect' }, /slo_url/],
        ['update_saml_service_provider', { id: none.id, slo_binding: 'redirect' }, /slo_url/],
        ['update_saml_service_provider', { id: urlOnly.id, remove_slo_url: true, slo_binding: 'redirect' }, /not both/],
      ];
      for (const [name, input, message] of refusals) {
        const outcome = await call(protocol, name, input);
        assert.ok('error' in outcome, `${name} ${JSON.stringify(input)}`);
        assert.equal(outcome.error, 'invalid_argument');
        assert.match(outcome.message, message);
      }
    });
  }
});
