/**
 * The admin journey over OAuth clients (docs/operations.md, "Client registry", "Trusted issuers"): register
 * a client (its scopes start as the server's default, openid email profile) with a post-logout redirect URI and
 * see its secret once (never again after a reload), read how to connect (issuer and discovery URL), edit its
 * redirect URIs (a fragment is refused beside the field, then a valid list is saved) and its post-logout
 * redirect URIs (plain http off this machine is refused beside the field; the saved one is where /logout
 * returns, and a redirect URI is not), rotate the secret (the dialog says until when the old one works), add
 * and delete a trusted issuer, deactivate, and delete the client. Then a list longer than a page.
 */
import { screenshot } from './support/fixtures.ts';
import { adminCall, test, expect, type ConsoleServer } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

const CLIENT_FIELDS = 'id client_id name redirect_uris post_logout_redirect_uris allowed_scopes is_active';

async function clientById(server: ConsoleServer, id: string) {
  return (await adminCall(server, `query($p: GetClientRequest!) { _client(params: $p) { ${CLIENT_FIELDS} } }`, { p: { id } }))._client;
}

test('admin registers a client, edits it, rotates its secret, manages an issuer, deactivates and deletes it', async ({ page, consoleServer }) => {
  test.setTimeout(120_000);
  const name = `Billing app ${Date.now().toString(36)}`;
  await signInToConsole(page, consoleServer);
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'OAuth clients' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'OAuth clients' })).toBeVisible();

  // Register: the form checks the redirect URI before the server does.
  await page.getByRole('button', { name: 'Register client' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register a client' });
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText('Enter a name.')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  // The scopes start as the server's default, real values rather than a placeholder; one more is added.
  for (const scope of ['openid', 'email', 'profile']) await expect(dialog.getByText(scope, { exact: true })).toBeVisible();
  const scopes = dialog.getByRole('combobox', { name: 'Allowed scopes' });
  await scopes.fill('invoices:read');
  await scopes.press('Enter');
  await dialog.getByLabel('Redirect URIs', { exact: true }).fill('https:app.example.com/cb');
  await dialog.getByRole('button', { name: 'Register' }).click();
  await expect(dialog.getByText('Line 1: an absolute http:// or https:// URL written as scheme://host/…')).toBeVisible();
  await dialog.getByLabel('Redirect URIs', { exact: true }).fill('https://app.example.com/cb');
  await dialog.getByLabel('Post-logout redirect URIs').fill('https://app.example.com/signed-out');
  await dialog.getByRole('button', { name: 'Register' }).click();

  // The secret, once, with the warning; the dialog does not close by Escape while it shows.
  const created = page.getByRole('dialog', { name: 'Client registered' });
  await expect(created.getByText('Copy the secret now')).toBeVisible();
  const secret = (await created.getByTestId('issued-client-secret').textContent())!.trim();
  const clientId = (await created.getByTestId('issued-client-id').textContent())!.trim();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(created.getByRole('button', { name: 'Copy: Client secret' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(created).toBeVisible();
  await screenshot(page, 'console-client-created');
  await created.getByRole('button', { name: 'Open the client' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const saved = await clientById(consoleServer, id);
  expect(saved).toMatchObject({
    client_id: clientId, name, allowed_scopes: ['openid', 'email', 'profile', 'invoices:read'], redirect_uris: ['https://app.example.com/cb'],
    post_logout_redirect_uris: ['https://app.example.com/signed-out'], is_active: true,
  });

  // Never shown again: not after a reload, not anywhere in the page.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText(clientId).first()).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await expect(page.getByText('Hidden. A secret is shown only when the client is registered and when it is rotated.')).toBeVisible();

  // How to connect: the issuer (--url) and the discovery URL to copy, and a discovery document that answers there.
  const connect = page.locator('section', { has: page.getByRole('heading', { name: 'How to connect' }) });
  await expect(connect.getByTestId('connect-issuer')).toHaveText(consoleServer.url);
  await expect(connect.getByTestId('connect-discovery')).toHaveText(`${consoleServer.url}/.well-known/openid-configuration`);
  await expect(connect.getByTestId('connect-client-id')).toHaveText(clientId);
  await expect(connect.getByRole('button', { name: 'Copy: Discovery URL' })).toBeVisible();
  const discovery = await (await fetch(`${consoleServer.url}/.well-known/openid-configuration`)).json();
  expect(discovery.issuer).toBe(consoleServer.url);
  // The default scopes are really registered: client_credentials may ask for openid.
  const token = await fetch(`${consoleServer.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'openid' }).toString(),
  });
  expect(token.status).toBe(200);
  expect((await token.json()).scope).toBe('openid');

  // Redirect URIs: a fragment is refused beside the field and nothing is saved; a valid list is.
  const uris = page.getByLabel('Redirect URIs', { exact: true });
  await uris.fill('https://app.example.com/cb\nhttps://app.example.com/done#top');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Line 2: no fragment (#…) is allowed (RFC 6749 section 3.1.2)')).toBeVisible();
  expect((await clientById(consoleServer, id)).redirect_uris).toEqual(['https://app.example.com/cb']);
  await uris.fill('https://app.example.com/cb\nhttp://127.0.0.1:9000/done');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Client saved.')).toBeVisible();
  expect((await clientById(consoleServer, id)).redirect_uris).toEqual(['https://app.example.com/cb', 'http://127.0.0.1:9000/done']);

  // Post-logout redirect URIs, a list of their own: plain http off this machine is refused beside the field.
  const logoutUris = page.getByLabel('Post-logout redirect URIs');
  await expect(logoutUris).toHaveValue('https://app.example.com/signed-out');
  await logoutUris.fill('https://app.example.com/signed-out\nhttp://app.example.com/bye');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Line 2: https:// is required; http:// only for localhost, 127.0.0.1 or [::1]')).toBeVisible();
  expect((await clientById(consoleServer, id)).post_logout_redirect_uris).toEqual(['https://app.example.com/signed-out']);
  await logoutUris.fill('https://app.example.com/signed-out\nhttp://127.0.0.1:9000/bye');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(async () => (await clientById(consoleServer, id)).post_logout_redirect_uris)
    .toEqual(['https://app.example.com/signed-out', 'http://127.0.0.1:9000/bye']);
  expect((await clientById(consoleServer, id)).redirect_uris).toEqual(['https://app.example.com/cb', 'http://127.0.0.1:9000/done']);
  // /logout returns to a saved post-logout URI, and not to a redirect URI.
  const logout = (target: string) => fetch(`${consoleServer.url}/logout?${new URLSearchParams({ client_id: clientId, post_logout_redirect_uri: target })}`, { redirect: 'manual' });
  expect((await logout('http://127.0.0.1:9000/bye')).headers.get('location')).toBe('http://127.0.0.1:9000/bye');
  expect((await logout('http://127.0.0.1:9000/done')).headers.get('location')).toBeNull();
  await screenshot(page, 'console-client');

  // Rotate, after confirming: a new secret, and until when the old one keeps working (default grace: one day).
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('dialog', { name: 'Rotate the client secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = page.getByRole('dialog', { name: 'New client secret' });
  const fresh = (await rotated.getByTestId('issued-client-secret').textContent())!.trim();
  expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(fresh).not.toBe(secret);
  await expect(rotated.getByText(/^The old secret keeps working until .+, so applications can switch/)).toBeVisible();
  await rotated.getByRole('button', { name: 'I have stored the secret' }).click();
  await expect(rotated).toBeHidden();
  expect(await page.content()).not.toContain(fresh);

  // Trusted issuers: add one (the server refuses a plain-http JWKS URL on a public host), then delete it.
  const issuerName = 'Build runners';
  await page.getByRole('button', { name: 'Add issuer' }).click();
  const issuerDialog = page.getByRole('dialog', { name: 'Add a trusted issuer' });
  await issuerDialog.getByLabel('Name').fill(issuerName);
  await issuerDialog.getByLabel('Issuer (iss)').fill('https://ci.example.com');
  await issuerDialog.getByLabel('JWKS URL').fill('http://ci.example.com/jwks.json');
  await issuerDialog.getByRole('button', { name: 'Add issuer' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /jwks_url/i }).first()).toBeVisible();
  await expect(issuerDialog).toBeVisible();
  await issuerDialog.getByLabel('JWKS URL').fill('https://ci.example.com/.well-known/jwks.json');
  await issuerDialog.getByRole('button', { name: 'Add issuer' }).click();
  await expect(issuerDialog).toBeHidden();
  const issuerRows = page.getByTestId('issuer-row');
  await expect(issuerRows).toHaveCount(1);
  await expect(issuerRows.first()).toContainText('https://ci.example.com');
  await expect(issuerRows.first()).toContainText('Active');
  const issuers = await adminCall(consoleServer, 'query($p: TrustedIssuersRequest!) { _trusted_issuers(params: $p) { trusted_issuers { issuer jwks_url subject_claim is_active } } }', { p: { client_id: clientId } });
  expect(issuers._trusted_issuers.trusted_issuers).toEqual([
    { issuer: 'https://ci.example.com', jwks_url: 'https://ci.example.com/.well-known/jwks.json', subject_claim: 'sub', is_active: true },
  ]);
  await page.getByRole('button', { name: `Delete ${issuerName}` }).click();
  await page.getByRole('dialog', { name: 'Delete the trusted issuer?' }).getByRole('button', { name: 'Delete issuer' }).click();
  await expect(issuerRows).toHaveCount(0);
  await expect(page.getByText('No trusted issuers.', { exact: false })).toBeVisible();

  // Deactivate, after confirming.
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await page.getByRole('dialog', { name: 'Deactivate the client?' }).getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText('Client deactivated.')).toBeVisible();
  await expect(page.getByText('Inactive', { exact: true })).toBeVisible();
  expect((await clientById(consoleServer, id)).is_active).toBe(false);

  // The page at phone width (loaded afresh: no navbar transition or notifications in the picture).
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await screenshot(page, 'console-client-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Delete: cancelling keeps it; confirming removes it and returns to the list.
  await page.getByRole('button', { name: 'Delete client' }).click();
  await page.getByRole('dialog', { name: 'Delete the client?' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('button', { name: 'Delete client' }).click();
  await page.getByRole('dialog', { name: 'Delete the client?' }).getByRole('button', { name: 'Delete permanently' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'OAuth clients' })).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
  await expect(adminCall(consoleServer, 'query($p: GetClientRequest!) { _client(params: $p) { id } }', { p: { id } })).rejects.toThrow(/client not found/);
});

test('the client list pages on the server with the page in the URL', async ({ page, consoleServer }) => {
  const batch = `Batch ${Date.now().toString(36)}`;
  for (let i = 0; i < 12; i += 1) {
    await adminCall(consoleServer, 'mutation($p: CreateClientRequest!) { _create_client(params: $p) { client { id } } }', {
      p: { name: `${batch} ${String(i).padStart(2, '0')}` },
    });
  }
  const total = (await adminCall(consoleServer, 'query { _clients(params: {}) { pagination { total } } }'))._clients.pagination.total as number;
  await signInToConsole(page, consoleServer);
  await page.goto(`${consoleServer.url}/dashboard/clients`);
  await expect(page.getByText(`Showing 1–10 of ${total}`)).toBeVisible();
  await expect(page.getByRole('link', { name: `${batch} 11` })).toBeVisible();
  await screenshot(page, 'console-clients');
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/\/dashboard\/clients\?page=2$/);
  await expect(page.getByText(`Showing 11–${Math.min(20, total)} of ${total}`)).toBeVisible();
  await expect(page.getByRole('link', { name: `${batch} 00` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('link', { name: `${batch} 00` })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByRole('link', { name: `${batch} 00` })).toBeVisible();
  await screenshot(page, 'console-clients-375');
});
