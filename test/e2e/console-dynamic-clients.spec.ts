/**
 * The client list tells self-registered clients apart (docs/openid-connect-clients.md#dynamic-client-registration):
 * a client registered at /oauth/register (RFC 7591, --dynamic-registration open) shows the "Self-registered"
 * badge in the console's list; one an admin created does not.
 */
import { test as base } from '@playwright/test';
import { portcullisFixture, screenshot } from './support/fixtures.ts';
import { CONSOLE_ROLES, adminCall, expect, type ConsoleServer } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

const test = base.extend<object, { consoleServer: ConsoleServer }>({
  consoleServer: [
    portcullisFixture(['--roles', CONSOLE_ROLES.join(','), '--default-roles', 'user', '--dynamic-registration', 'open']),
    { scope: 'worker', timeout: 60_000 },
  ],
});

test('a dynamically registered client carries the Self-registered badge in the client list', async ({ page, consoleServer }) => {
  const suffix = Date.now().toString(36);
  const registered = await fetch(`${consoleServer.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: `CLI tool ${suffix}`, redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'none' }),
  });
  expect(registered.status).toBe(201);
  await adminCall(consoleServer, 'mutation($p: CreateClientRequest!) { _create_client(params: $p) { client { id } } }', { p: { name: `Admin app ${suffix}` } });

  await signInToConsole(page, consoleServer);
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'OAuth clients' }).click();
  const selfRow = page.getByRole('row').filter({ hasText: `CLI tool ${suffix}` });
  const adminRow = page.getByRole('row').filter({ hasText: `Admin app ${suffix}` });
  await expect(selfRow.getByText('Self-registered', { exact: true })).toBeVisible();
  await expect(adminRow).toBeVisible();
  await expect(adminRow.getByText('Self-registered', { exact: true })).toHaveCount(0);
  await screenshot(page, 'console-client-self-registered');
});
