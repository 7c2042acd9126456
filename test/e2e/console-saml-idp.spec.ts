/**
 * The admin journey over an organization as a SAML 2.0 identity provider
 * (docs/api-overview.md#resources-and-fields, "SAML service provider", docs/api-overview.md#states-and-transitions
 * IdP key states, docs/operations.md, "SAML IdP"): pasted SP metadata refused when it is not metadata,
 * then read into the form (nothing stored until created); the service provider created, its attribute mapping
 * edited; the IdP metadata URL shown and fetched (it lists the current key); the signing key rotated after a
 * confirmation (two keys, their states shown, both in the metadata), the old one retired (it leaves the
 * metadata, the current one offers no retirement); a retirement refused by the server shown in its words; the
 * service provider deleted after a confirmation.
 */
import { test, expect } from './support/console-fixtures.ts';
import { screenshot } from './support/fixtures.ts';
import { signInToConsole } from './support/console-page.ts';
import { adminCall } from './support/console-fixtures.ts';
import { makeCertificate } from '../support/saml-idp.ts';
import type { Page } from '@playwright/test';

const SP_ENTITY = 'https://wiki.hooli.example/saml/metadata';
const SP_ACS = 'https://wiki.hooli.example/saml/acs';

function spMetadata(certificatePem: string): string {
  const body = certificatePem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${SP_ENTITY}">
  <md:SPSSODescriptor AuthnRequestsSigned="true" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${SP_ACS}" index="3" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>`;
}

const SP = `query($p: SamlServiceProvidersRequest!) { _saml_service_providers(params: $p) { service_providers {
  name entity_id acs_endpoints { url index is_default } certificate_fingerprint_sha256 attribute_mapping { field attribute } name_id_format active } } }`;

async function metadataOf(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.text();
}

/** The base64 body of a PEM certificate, as the metadata's X509Certificate carries it. */
function certificateBody(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
}

async function keyCertificates(server: { url: string; adminSecret: string; output(): string }, orgId: string): Promise<{ state: string; certificate: string; fingerprint_sha256: string }[]> {
  const answer = await adminCall(server, 'query($p: SamlIdpKeysRequest!) { _saml_idp_keys(params: $p) { keys { state certificate fingerprint_sha256 } } }', { p: { org_id: orgId } });
  return answer._saml_idp_keys.keys;
}

/** The page from its top: the full-page capture of a scrolled page paints the fixed header midway. */
async function pageShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** Key ids by fingerprint. */
async function keyIds(server: { url: string; adminSecret: string; output(): string }, orgId: string): Promise<Map<string, string>> {
  const answer = await adminCall(server, 'query($p: SamlIdpKeysRequest!) { _saml_idp_keys(params: $p) { keys { id fingerprint_sha256 } } }', { p: { org_id: orgId } });
  return new Map(answer._saml_idp_keys.keys.map((key: { id: string; fingerprint_sha256: string }) => [key.fingerprint_sha256, key.id]));
}

async function closeNotifications(page: Page): Promise<void> {
  for (const close of await page.locator('.mantine-Notification-root button').all()) await close.click({ timeout: 2000 }).catch(() => undefined);
}

test('admin registers a SAML app from pasted metadata, maps attributes, rotates and retires IdP keys', async ({ page, consoleServer }) => {
  test.setTimeout(120_000);
  const slug = `hooli-${Date.now().toString(36)}`;
  const created = await adminCall(consoleServer, 'mutation($p: CreateOrganizationRequest!) { _create_organization(params: $p) { id } }', {
    p: { name: slug, display_name: 'Hooli' },
  });
  const orgId: string = created._create_organization.id;
  const spCertificate = makeCertificate({ cn: 'wiki.hooli.example' });

  await signInToConsole(page, consoleServer);
  await page.goto(`${consoleServer.url}/dashboard/organizations/${orgId}?tab=saml-idp`);
  await expect(page.getByRole('tab', { name: 'SAML apps' })).toHaveAttribute('aria-selected', 'true');

  // The IdP metadata URL, and the document behind it lists the current key.
  const metadataUrl = `${consoleServer.url}/saml/${slug}/metadata`;
  await expect(page.getByTestId('saml-idp-metadata-url')).toHaveText(metadataUrl);
  await expect(page.getByRole('link', { name: 'Download IdP metadata' })).toHaveAttribute('href', metadataUrl);
  const keysTable = page.getByRole('table', { name: 'SAML IdP signing keys' });
  await expect(keysTable.getByRole('row')).toHaveCount(2);
  const [firstKey] = await keyCertificates(consoleServer, orgId);
  expect(firstKey!.state).toBe('current');
  await expect(keysTable).toContainText(firstKey!.fingerprint_sha256);
  await expect(keysTable).toContainText('Current');
  expect(await metadataOf(metadataUrl)).toContain(certificateBody(firstKey!.certificate));
  await expect(page.getByText('No SAML service providers yet.')).toBeVisible();

  // Pasted text that is not metadata: the server's refusal under the field; nothing created.
  await page.getByRole('button', { name: 'Add SAML app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register a SAML service provider' });
  const pasted = dialog.getByLabel('Paste SP metadata');
  await pasted.fill('<html><body>not metadata</body></html>');
  await dialog.getByRole('button', { name: 'Fill the form from metadata' }).click();
  await expect(dialog.getByText('not SAML metadata', { exact: false })).toBeVisible();
  await screenshot(page, 'console-saml-idp-metadata-refused');

  // Real metadata fills the form: entity id, ACS with its index, certificate, NameID format.
  await pasted.fill(spMetadata(spCertificate.certificatePem));
  await dialog.getByRole('button', { name: 'Fill the form from metadata' }).click();
  await expect(dialog.getByLabel('SP entity ID')).toHaveValue(SP_ENTITY);
  await expect(dialog.getByRole('textbox', { name: 'ACS URL 1', exact: true })).toHaveValue(SP_ACS);
  await expect(dialog.getByLabel('SP signing certificate (PEM, optional)')).toHaveValue(/BEGIN CERTIFICATE/);
  await expect(dialog.getByRole('combobox', { name: 'NameID format' })).toHaveValue('persistent');
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('wiki.hooli.example');
  expect((await adminCall(consoleServer, SP, { p: { org_id: orgId } }))._saml_service_providers.service_providers).toEqual([]);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Hooli Wiki');
  await dialog.getByRole('button', { name: 'Add attribute' }).click();
  await dialog.getByLabel('SAML attribute name 1').fill('urn:oid:0.9.2342.19200300.100.1.3');
  await screenshot(page, 'console-saml-idp-sp-prefilled');
  await dialog.getByRole('button', { name: 'Create service provider' }).click();
  await expect(page.getByText('SAML service provider Hooli Wiki created.')).toBeVisible();
  await expect(dialog).toBeHidden();

  const providers = page.getByRole('table', { name: 'SAML service providers of the organization' });
  const row = providers.getByRole('row').filter({ hasText: 'Hooli Wiki' });
  await expect(row).toContainText(SP_ACS);
  await expect(row).toContainText('id → urn:oid:0.9.2342.19200300.100.1.3');
  await expect(row).toContainText('Signed requests');
  let stored = (await adminCall(consoleServer, SP, { p: { org_id: orgId } }))._saml_service_providers.service_providers;
  expect(stored).toEqual([
    {
      name: 'Hooli Wiki',
      entity_id: SP_ENTITY,
      acs_endpoints: [{ url: SP_ACS, index: 3, is_default: true }],
      certificate_fingerprint_sha256: expect.any(String),
      attribute_mapping: [{ field: 'id', attribute: 'urn:oid:0.9.2342.19200300.100.1.3' }],
      name_id_format: 'persistent',
      active: true,
    },
  ]);

  // Edit the mapping: the first row becomes email, a second row sends the given name.
  await closeNotifications(page);
  await row.getByRole('button', { name: 'Edit Hooli Wiki' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Hooli Wiki' });
  await expect(edit.getByLabel('Paste SP metadata')).toHaveCount(0);
  await edit.getByRole('combobox', { name: 'User field 1' }).click();
  await page.getByRole('option', { name: 'email', exact: true }).click();
  await edit.getByLabel('SAML attribute name 1').fill('mail');
  await edit.getByRole('button', { name: 'Add attribute' }).click();
  await edit.getByRole('combobox', { name: 'User field 2' }).click();
  await page.getByRole('option', { name: 'given_name', exact: true }).click();
  await edit.getByLabel('SAML attribute name 2').fill('givenName');
  await screenshot(page, 'console-saml-idp-sp-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('SAML service provider Hooli Wiki saved.')).toBeVisible();
  await expect(row).toContainText('email → mail, given_name → givenName');
  stored = (await adminCall(consoleServer, SP, { p: { org_id: orgId } }))._saml_service_providers.service_providers;
  expect(stored[0].attribute_mapping).toEqual([{ field: 'email', attribute: 'mail' }, { field: 'given_name', attribute: 'givenName' }]);
  expect(stored[0].certificate_fingerprint_sha256).toEqual(expect.any(String));
  expect(stored[0].acs_endpoints).toEqual([{ url: SP_ACS, index: 3, is_default: true }]);

  // Rotate after a confirmation that says SPs must refresh the metadata: two keys, both published in it.
  await closeNotifications(page);
  await page.getByRole('button', { name: 'Rotate signing key' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate the SAML signing key?' });
  await expect(rotate).toContainText('must get the new metadata');
  await rotate.getByRole('button', { name: 'Rotate key' }).click();
  await expect(page.getByText('A new signing key is current', { exact: false })).toBeVisible();
  await expect(keysTable.getByRole('row')).toHaveCount(3);
  const rotated = await keyCertificates(consoleServer, orgId);
  const current = rotated.find((key) => key.state === 'current')!;
  const old = rotated.find((key) => key.state === 'published')!;
  expect(old.fingerprint_sha256).toBe(firstKey!.fingerprint_sha256);
  const currentRow = keysTable.getByRole('row').filter({ hasText: current.fingerprint_sha256 });
  const oldRow = keysTable.getByRole('row').filter({ hasText: old.fingerprint_sha256 });
  await expect(currentRow).toContainText('Current');
  await expect(oldRow).toContainText('Published');
  await expect(oldRow).toContainText('stopped signing');
  await expect(currentRow.getByRole('button', { name: 'Retire' })).toHaveCount(0);
  const both = await metadataOf(metadataUrl);
  expect(both).toContain(certificateBody(current.certificate));
  expect(both).toContain(certificateBody(old.certificate));
  await pageShot(page, 'console-saml-idp-rotated');

  // Retire the old key: it leaves the metadata; the current one stays.
  await closeNotifications(page);
  await oldRow.getByRole('button', { name: 'Retire' }).click();
  const retire = page.getByRole('dialog', { name: 'Retire this key?' });
  await expect(retire).toContainText('leaves the metadata');
  await retire.getByRole('button', { name: 'Retire key' }).click();
  await expect(page.getByText('Key retired: it has left the metadata.')).toBeVisible();
  await expect(oldRow).toContainText('Retired');
  await expect(oldRow.getByRole('button', { name: 'Retire' })).toHaveCount(0);
  const after = await metadataOf(metadataUrl);
  expect(after).toContain(certificateBody(current.certificate));
  expect(after).not.toContain(certificateBody(old.certificate));
  await pageShot(page, 'console-saml-idp-retired');

  // A refusal is the server's, in its words: a key retired elsewhere while this page still showed it published.
  await adminCall(consoleServer, 'mutation($p: RotateSamlIdpCertRequest!) { _rotate_saml_idp_cert(params: $p) { metadata_url } }', { p: { org_id: orgId } });
  await page.reload();
  const staleRow = keysTable.getByRole('row').filter({ hasText: current.fingerprint_sha256 });
  await expect(staleRow).toContainText('Published');
  await adminCall(consoleServer, 'mutation($p: RetireSamlIdpKeyRequest!) { _retire_saml_idp_key(params: $p) { metadata_url } }', {
    p: { org_id: orgId, key_id: (await keyIds(consoleServer, orgId)).get(current.fingerprint_sha256) },
  });
  await staleRow.getByRole('button', { name: 'Retire' }).click();
  await page.getByRole('dialog', { name: 'Retire this key?' }).getByRole('button', { name: 'Retire key' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'this key is already retired' });
  await expect(refusal).toBeVisible();
  await expect(staleRow).toContainText('Retired');
  await expect(keysTable.getByRole('row')).toHaveCount(4);
  await refusal.getByRole('button').click();

  // Delete the service provider after a confirmation that says its sign-ins stop at once.
  // From the keyboard: the row sits at the top of the scrolled page, under where notifications stack.
  await row.getByRole('button', { name: 'Delete Hooli Wiki' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete Hooli Wiki?' });
  await expect(confirm).toContainText('stop at once');
  await confirm.getByRole('button', { name: 'Delete service provider' }).click();
  await expect(page.getByText('No SAML service providers yet.')).toBeVisible();
  expect((await adminCall(consoleServer, SP, { p: { org_id: orgId } }))._saml_service_providers.service_providers).toEqual([]);
});
