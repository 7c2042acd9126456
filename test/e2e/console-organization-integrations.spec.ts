/**
 * The admin journey over an organization's integrations (docs/api-overview.md#states-and-transitions, "Org domain" transitions,
 * docs/operations.md, "Org domains", "Org SSO connections" and "SCIM"): request a domain and read its TXT record; verify it
 * before the record exists and read the server's refusal; publish the record on a real DNS server on loopback
 * (test/support/dns-server.ts, named by --dns-servers) and verify; add another as verified without DNS; delete
 * one. Then the OIDC connection: created with a write-only secret, edited with the secret left empty (kept),
 * deleted after a confirmation that says sign-ins stop at once. Then SCIM: the token shown once, rotated
 * (the old one refused at once), the endpoint deleted. And a SAML connection: the service provider's
 * addresses to register, the IdP certificate checked and answered by fingerprint, kept when left empty.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { screenshot } from './support/fixtures.ts';
import { portcullisFixture } from './support/fixtures.ts';
import { adminCall, type ConsoleServer } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { makeCertificate } from '../support/saml-idp.ts';
import { X509Certificate } from 'node:crypto';

interface OrgServer extends ConsoleServer {
  dns: TestDnsServer;
}

const test = base.extend<object, { orgServer: OrgServer }>({
  orgServer: [
    async ({}, use) => {
      const dns = await startDnsServer();
      await portcullisFixture(['--dns-servers', dns.address, '--org-sso-allow-private-addresses=true'])({}, async (server) => use({ ...server, dns }));
      await dns.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
});

const CONNECTION = 'query($p: OrgOidcConnectionRequest!) { _org_oidc_connection(params: $p) { issuer client_id has_client_secret scopes allowed_email_domains enabled } }';

/**
 * Opens a tab of the organization page from the keyboard: on this long page the tab row scrolls under the
 * stacked notifications, which pause while the pointer rests on them and would take the click.
 */
async function openTab(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tab', { name });
  await tab.focus();
  await page.keyboard.press('Enter');
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** A SCIM call with the bearer token: the HTTP status of listing users. */
async function scimStatus(server: OrgServer, token: string): Promise<number> {
  const res = await fetch(`${server.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });
  return res.status;
}

test('admin proves a domain, connects OIDC SSO and provisions over SCIM', async ({ page, orgServer }) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  const created = await adminCall(orgServer, 'mutation($p: CreateOrganizationRequest!) { _create_organization(params: $p) { id } }', {
    p: { name: `initech-${suffix}`, display_name: 'Initech' },
  });
  const orgId: string = created._create_organization.id;
  const domain = `initech-${suffix}.example.com`;

  await signInToConsole(page, orgServer);
  await page.goto(`${orgServer.url}/dashboard/organizations/${orgId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Initech' })).toBeVisible();

  // Request: the TXT record to publish, with copy buttons.
  await openTab(page, 'Domains');
  await page.getByLabel('Domain', { exact: true }).fill(domain);
  await page.getByRole('button', { name: 'Request domain' }).click();
  const record = page.getByRole('alert').filter({ hasText: `Publish this DNS record for ${domain}` });
  await expect(record.getByTestId('domain-record-name')).toHaveText(`_service-challenge.${domain}`);
  await expect(record.getByTestId('domain-record-value')).toHaveText(/^service-domain-verification=[A-Za-z0-9_-]{43}$/);
  await expect(record.getByRole('button', { name: 'Copy: Record value' })).toBeVisible();
  const value = (await record.getByTestId('domain-record-value').textContent())!;
  const domains = page.getByRole('table', { name: 'Domains of the organization' });
  const row = domains.getByRole('row').filter({ hasText: domain });
  await expect(row.getByText('Pending')).toBeVisible();
  await screenshot(page, 'console-organization-domain-record');

  // Verify before the record exists: the server's refusal, in its words.
  await row.getByRole('button', { name: 'Verify' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'That did not work' });
  await expect(refusal).toContainText(`no TXT record found at _service-challenge.${domain}`);
  await screenshot(page, 'console-organization-domain-refused');
  await refusal.getByRole('button').click();

  // Published: verified.
  orgServer.dns.setTxt(`_service-challenge.${domain}`, [value]);
  await row.getByRole('button', { name: 'Verify' }).click();
  await expect(row.getByText('Verified')).toBeVisible();
  await expect(page.getByText(`${domain} is verified.`)).toBeVisible();
  await expect(row.getByRole('button', { name: 'Verify' })).toHaveCount(0);

  // The super-admin adds one as verified, no DNS asked.
  const asked = orgServer.dns.queries.length;
  await page.getByLabel('Domain', { exact: true }).fill(`mail-${suffix}.example.com`);
  await page.getByRole('button', { name: 'Add as verified' }).click();
  const second = domains.getByRole('row').filter({ hasText: `mail-${suffix}.example.com` });
  await expect(second.getByText('Verified')).toBeVisible();
  expect(orgServer.dns.queries.length).toBe(asked);

  // Open a row to read its record again; delete the second after a confirmation.
  await row.getByRole('button', { name: `Show the DNS record of ${domain}` }).click();
  await expect(domains.getByTestId('domain-record-value')).toHaveText(value);
  await second.getByRole('button', { name: `Delete mail-${suffix}.example.com` }).click();
  const confirmDomain = page.getByRole('dialog', { name: `Delete mail-${suffix}.example.com?` });
  await expect(confirmDomain).toContainText('stop routing to this organization’s SSO at once');
  await confirmDomain.getByRole('button', { name: 'Delete domain' }).click();
  await expect(second).toHaveCount(0);
  await screenshot(page, 'console-organization-domains');

  // OIDC connection: none yet; created with a secret that is never shown back.
  await openTab(page, 'Single sign-on');
  await expect(page.getByText('No SSO connection yet', { exact: false })).toBeVisible();
  await expect(page.getByTestId('sso-callback')).toHaveText(`${orgServer.url}/sso/oidc/callback`);
  await page.getByLabel('Issuer').fill('ftp://idp.example.com');
  await page.getByRole('button', { name: 'Create connection' }).click();
  await expect(page.getByText('An absolute https:// URL without user name, query or fragment.')).toBeVisible();
  await page.getByLabel('Issuer').fill('https://idp.example.com');
  await page.getByLabel('Client ID').fill('initech-portcullis');
  await page.getByLabel('Client secret').fill('first-secret-value');
  await page.getByRole('button', { name: 'Create connection' }).click();
  await expect(page.getByText('SSO connection created.')).toBeVisible();
  await expect(page.getByLabel('Client secret')).toHaveValue('');
  await expect(page.getByText('A secret is stored (never shown). Leave empty to keep it', { exact: false })).toBeVisible();
  let stored = (await adminCall(orgServer, CONNECTION, { p: { org_id: orgId } }))._org_oidc_connection;
  expect(stored).toEqual({
    issuer: 'https://idp.example.com', client_id: 'initech-portcullis', has_client_secret: true,
    scopes: ['openid', 'email', 'profile'], allowed_email_domains: [], enabled: true,
  });
  const html = await page.content();
  expect(html).not.toContain('first-secret-value');

  // Edit with the secret left empty: kept. A domain the IdP may assert is added.
  await page.getByLabel('Client ID').fill('initech-portcullis-2');
  const allowed = page.getByRole('combobox', { name: 'Allowed email domains' });
  await allowed.fill(domain);
  await allowed.press('Enter');
  await page.getByRole('button', { name: 'Save connection' }).click();
  await expect(page.getByText('SSO connection saved.')).toBeVisible();
  stored = (await adminCall(orgServer, CONNECTION, { p: { org_id: orgId } }))._org_oidc_connection;
  expect(stored).toMatchObject({ client_id: 'initech-portcullis-2', has_client_secret: true, allowed_email_domains: [domain] });
  await screenshot(page, 'console-organization-sso');

  // SCIM: the token once, with the base URL.
  await openTab(page, 'SCIM');
  await expect(page.getByTestId('scim-base-url')).toHaveText(`${orgServer.url}/scim/v2/`);
  await page.getByRole('button', { name: 'Create SCIM endpoint' }).click();
  const tokenDialog = page.getByRole('dialog', { name: 'SCIM bearer token' });
  await expect(tokenDialog).toContainText('This is the only time the token is shown');
  const firstToken = (await tokenDialog.getByTestId('scim-token').textContent())!;
  expect(firstToken.length).toBeGreaterThan(30);
  await screenshot(page, 'console-organization-scim-token');
  await page.keyboard.press('Escape');
  await expect(tokenDialog).toBeVisible();
  await tokenDialog.getByRole('button', { name: 'I have stored the token' }).click();
  await expect(tokenDialog).toBeHidden();
  expect(await scimStatus(orgServer, firstToken)).toBe(200);
  expect(await page.content()).not.toContain(firstToken);

  // Rotate after the confirmation: the old token is refused at once.
  await page.getByRole('button', { name: 'Rotate token' }).click();
  const confirmRotate = page.getByRole('dialog', { name: 'Rotate the SCIM token?' });
  await expect(confirmRotate).toContainText('refused at once');
  await confirmRotate.getByRole('button', { name: 'Rotate token' }).click();
  const secondToken = (await tokenDialog.getByTestId('scim-token').textContent())!;
  expect(secondToken).not.toBe(firstToken);
  await tokenDialog.getByRole('button', { name: 'I have stored the token' }).click();
  expect(await scimStatus(orgServer, firstToken)).toBe(401);
  expect(await scimStatus(orgServer, secondToken)).toBe(200);
  await screenshot(page, 'console-organization-scim');

  // Delete the SCIM endpoint: its token refused.
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await page.getByRole('dialog', { name: 'Delete the SCIM endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page.getByRole('button', { name: 'Create SCIM endpoint' })).toBeVisible();
  expect(await scimStatus(orgServer, secondToken)).toBe(401);

  // Delete the SSO connection: the confirmation says sign-ins stop at once.
  await openTab(page, 'Single sign-on');
  await page.getByRole('button', { name: 'Delete connection' }).click();
  const confirmSso = page.getByRole('dialog', { name: 'Delete the SSO connection?' });
  await expect(confirmSso).toContainText('stop at once');
  await confirmSso.getByRole('button', { name: 'Delete connection' }).click();
  await expect(page.getByText('No SSO connection yet', { exact: false })).toBeVisible();
  const gone = await fetch(`${orgServer.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: orgServer.url, 'x-service-admin-secret': orgServer.adminSecret },
    body: JSON.stringify({ query: CONNECTION, variables: { p: { org_id: orgId } } }),
  }).then((res) => res.json());
  expect(gone.errors[0].extensions.code).toBe('NOT_FOUND');
});

const SAML = 'query($p: OrgSamlConnectionRequest!) { _org_saml_connection(params: $p) { idp_sso_url idp_certificates { fingerprint_sha256 } } }';

test('admin connects SAML SSO: the addresses to register, the certificate by fingerprint, kept unless replaced', async ({ page, orgServer }) => {
  test.setTimeout(90_000);
  const slug = `umbrella-${Date.now().toString(36)}`;
  const created = await adminCall(orgServer, 'mutation($p: CreateOrganizationRequest!) { _create_organization(params: $p) { id } }', {
    p: { name: slug, display_name: 'Umbrella' },
  });
  const orgId: string = created._create_organization.id;
  const certificate = makeCertificate({ cn: 'idp.umbrella.example' });
  const expired = makeCertificate({ cn: 'old.umbrella.example', notBefore: new Date(Date.now() - 86_400_000 * 60), notAfter: new Date(Date.now() - 86_400_000) });

  await signInToConsole(page, orgServer);
  await page.goto(`${orgServer.url}/dashboard/organizations/${orgId}?tab=sso`);
  await expect(page.getByRole('tab', { name: 'Single sign-on' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No SAML connection yet', { exact: false })).toBeVisible();
  await expect(page.getByTestId('saml-sp-entity-id')).toHaveText(`${orgServer.url}/sso/saml/${slug}/metadata`);
  await expect(page.getByTestId('saml-sp-acs-url')).toHaveText(`${orgServer.url}/sso/saml/${slug}/acs`);

  await page.getByLabel('IdP entity ID').fill('https://idp.umbrella.example/saml');
  await page.getByLabel('IdP single sign-on URL').fill('https://idp.umbrella.example/saml/sso');
  const pem = page.getByLabel('IdP signing certificate (PEM)');
  await pem.fill('not a certificate');
  await page.getByRole('button', { name: 'Create SAML connection' }).click();
  await expect(page.getByText('A PEM certificate: -----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----.')).toBeVisible();

  // An expired certificate is the server's refusal, in its words.
  await pem.fill(expired.certificatePem);
  await page.getByRole('button', { name: 'Create SAML connection' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'That did not work' });
  await expect(refusal).toContainText('expired');
  await refusal.getByRole('button').click();

  await pem.fill(certificate.certificatePem);
  await page.getByRole('button', { name: 'Create SAML connection' }).click();
  await expect(page.getByText('SAML connection created.')).toBeVisible();
  const fingerprint = new X509Certificate(certificate.certificatePem).fingerprint256;
  await expect(page.getByRole('table', { name: 'IdP certificates held' })).toContainText(fingerprint);
  await expect(pem).toHaveValue('');
  await screenshot(page, 'console-organization-saml');

  // The certificate left empty is kept; the new URL is saved.
  await page.getByLabel('IdP single sign-on URL').fill('https://idp.umbrella.example/saml/sso2');
  await page.getByRole('button', { name: 'Save SAML connection' }).click();
  await expect(page.getByText('SAML connection saved.')).toBeVisible();
  const stored = (await adminCall(orgServer, SAML, { p: { org_id: orgId } }))._org_saml_connection;
  expect(stored).toEqual({ idp_sso_url: 'https://idp.umbrella.example/saml/sso2', idp_certificates: [{ fingerprint_sha256: fingerprint }] });

  // Deleted after a confirmation that says sign-ins stop at once.
  await page.getByRole('button', { name: 'Delete SAML connection' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the SAML connection?' });
  await expect(confirm).toContainText('stop at once');
  await confirm.getByRole('button', { name: 'Delete connection' }).click();
  await expect(page.getByText('No SAML connection yet', { exact: false })).toBeVisible();
});
