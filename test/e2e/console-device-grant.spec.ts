/**
 * The client page's device sign-in switch (RFC 8628; docs/operations.md#set_client_device_grant): off for a new
 * client, so /oauth/device_authorization refuses it as unauthorized_client; switched on in the console, the
 * same request gets a user code; switched off again, refused again.
 */
import { screenshot } from './support/fixtures.ts';
import { adminCall, test, expect, type ConsoleServer } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

async function askForCode(server: ConsoleServer, clientId: string, secret: string): Promise<Record<string, string>> {
  const res = await fetch(`${server.url}/oauth/device_authorization`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    body: 'scope=openid',
  });
  return (await res.json()) as Record<string, string>;
}

test('admin switches device sign-in on and off for a client, and the device authorization endpoint follows', async ({ page, consoleServer }) => {
  const name = `TV app ${Date.now().toString(36)}`;
  const created = (await adminCall(consoleServer, 'mutation($p: CreateClientRequest!) { _create_client(params: $p) { client { id client_id } client_secret } }', {
    p: { name },
  }))._create_client;
  const { id, client_id: clientId } = created.client;
  expect((await askForCode(consoleServer, clientId, created.client_secret)).error).toBe('unauthorized_client');

  await signInToConsole(page, consoleServer);
  await page.goto(`${consoleServer.url}/dashboard/clients/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const toggle = page.getByRole('switch', { name: 'Allow the device authorization grant' });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(page.getByText('Device sign-in allowed for this client')).toBeVisible();
  await expect(toggle).toBeChecked();
  await screenshot(page, 'console-client-device-grant');
  expect((await askForCode(consoleServer, clientId, created.client_secret)).user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

  // A reload reads the server's state, not the page's.
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Allow the device authorization grant' })).toBeChecked();
  await page.getByRole('switch', { name: 'Allow the device authorization grant' }).click();
  await expect(page.getByText('Device sign-in turned off for this client')).toBeVisible();
  expect((await askForCode(consoleServer, clientId, created.client_secret)).error).toBe('unauthorized_client');
});
