/**
 * The client page's back-channel logout card (docs/openid-connect-clients.md#back-channel-logout): a new client
 * has no URI; one typed and saved in the console is what `_client_backchannel_logout` answers, a private
 * address is refused with the server's reason (the e2e server does not allow private addresses), and an
 * emptied field removes the registration.
 */
import { screenshot } from './support/fixtures.ts';
import { adminCall, test, expect, type ConsoleServer } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

async function registration(server: ConsoleServer, clientId: string): Promise<{ backchannel_logout_uri: string; backchannel_logout_session_required: boolean }> {
  const query = 'query($p: ClientBackchannelLogoutQuery!) { _client_backchannel_logout(params: $p) { backchannel_logout_uri backchannel_logout_session_required } }';
  return (await adminCall(server, query, { p: { client_id: clientId } }))._client_backchannel_logout;
}

test('admin registers, is refused and removes a client\'s back-channel logout URI', async ({ page, consoleServer }) => {
  const name = `Logout app ${Date.now().toString(36)}`;
  const created = (await adminCall(consoleServer, 'mutation($p: CreateClientRequest!) { _create_client(params: $p) { client { id client_id } client_secret } }', {
    p: { name },
  }))._create_client;
  const { id, client_id: clientId } = created.client;

  await signInToConsole(page, consoleServer);
  await page.goto(`${consoleServer.url}/dashboard/clients/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const field = page.getByRole('textbox', { name: 'Back-channel logout URI' });
  await expect(field).toHaveValue('');

  await field.fill('https://10.0.0.7/backchannel');
  await page.getByTestId('backchannel-logout-save').click();
  await expect(page.getByText(/internal address/)).toBeVisible();
  expect((await registration(consoleServer, clientId)).backchannel_logout_uri).toBe('');

  await field.fill('https://app.example.com/backchannel-logout');
  await page.getByRole('switch', { name: 'The application needs the session id (sid) in the logout token' }).click();
  await page.getByTestId('backchannel-logout-save').click();
  await expect(page.getByText('Back-channel logout URI saved')).toBeVisible();
  await screenshot(page, 'console-client-backchannel-logout');
  expect(await registration(consoleServer, clientId)).toEqual({ backchannel_logout_uri: 'https://app.example.com/backchannel-logout', backchannel_logout_session_required: true });

  // A reload reads the server's state, not the page's.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Back-channel logout URI' })).toHaveValue('https://app.example.com/backchannel-logout');
  await page.getByRole('textbox', { name: 'Back-channel logout URI' }).fill('');
  await page.getByTestId('backchannel-logout-save').click();
  await expect(page.getByText('Back-channel logout turned off for this client')).toBeVisible();
  expect((await registration(consoleServer, clientId)).backchannel_logout_uri).toBe('');
});
