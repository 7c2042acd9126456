/**
 * The admin journey over webhooks (README "Webhooks"; docs/operations.md): add a webhook for
 * user.access_revoked pointing at a receiver on loopback (the server runs with
 * --webhook-allow-private-addresses=true), with an extra header; send a test and read the receiver's status
 * and answer; revoke a user's access through the API and find the delivery in the webhook's log, its request
 * and response in the opened row; edit the endpoint, disable it, and delete it after the confirmation.
 */
import { screenshot } from './support/fixtures.ts';
import { adminCall, signUpUser } from './support/console-fixtures.ts';
import { test, expect } from './support/console-ops-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

/** The machine is shared with other test runs: deliveries and renders may take a while to arrive. */
const SLOW = { timeout: 45_000 };

test('admin adds a webhook, sends a test, sees a delivery in its log, edits, disables and deletes it', async ({ page, consoleServer }) => {
  test.setTimeout(180_000);
  const receiver = await startWebhookReceiver();
  try {
    await signInToConsole(page, consoleServer);
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

    // Add: the form checks the endpoint before the server does.
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect(dialog.getByText('Pick an event.')).toBeVisible();
    await expect(dialog.getByText('Enter the endpoint URL.')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Event' }).click();
    await page.getByRole('option', { name: 'user.access_revoked' }).click();
    await dialog.getByLabel('Endpoint').fill('ftp://example.com/hook');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect(dialog.getByText('An absolute http:// or https:// URL, without a user name or password.')).toBeVisible();
    await dialog.getByLabel('Endpoint').fill(`${receiver.url}/hooks/first`);
    await dialog.getByRole('button', { name: 'Add header' }).click();
    await dialog.getByRole('textbox', { name: 'Header name' }).fill('X-Service-Signature');
    await dialog.getByRole('textbox', { name: 'Header value' }).fill('forged');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect(dialog.getByText('The server sets this header itself.')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Header name' }).fill('X-Journey');
    await dialog.getByRole('textbox', { name: 'Header value' }).fill('console');
    await screenshot(page, 'console-webhook-form');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect(dialog).toBeHidden();

    const table = page.getByRole('table', { name: 'Webhooks, newest first' });
    const row = table.getByRole('row').filter({ hasText: `${receiver.url}/hooks/first` });
    await expect(row.getByRole('link', { name: 'user.access_revoked' })).toBeVisible();
    await expect(row.getByRole('switch')).toBeChecked();
    await screenshot(page, 'console-webhooks-list');

    // Send test: the receiver's status and its answer, and the extra header arrived.
    await row.getByRole('link', { name: 'user.access_revoked' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'user.access_revoked' })).toBeVisible();
    await expect(page.getByText('X-Journey: console')).toBeVisible();
    await page.getByRole('button', { name: 'Send test' }).click();
    const result = page.getByRole('dialog', { name: 'Test delivery' });
    await expect(result.getByText('200', { exact: true })).toBeVisible(SLOW);
    await expect(result.getByText('"by": "journey receiver"')).toBeVisible();
    const test1 = await receiver.waitFor((hook) => hook.path === '/hooks/first', 5_000);
    expect(test1.headers['x-journey']).toBe('console');
    expect(test1.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(test1.body)).toMatchObject({ event_name: 'user.access_revoked', user: { email: 'test-user@example.com' } });
    await screenshot(page, 'console-webhook-test');
    await result.getByRole('button', { name: 'Done' }).click();
    await expect(result).toBeHidden();

    // A real event: revoking a user's access is delivered and logged.
    const email = `hooked-${Date.now().toString(36)}@example.com`;
    const user = await signUpUser(consoleServer, email);
    await adminCall(consoleServer, 'mutation($p: UpdateAccessRequest!) { _revoke_access(param: $p) { message } }', { p: { user_id: user.id } });
    await receiver.waitFor((hook) => hook.body.includes(email), SLOW.timeout);
    const log = page.getByRole('table', { name: 'Delivery attempts, newest first' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(log.getByRole('row')).toHaveCount(2, { timeout: 2_000 }); // header + the delivery
    }).toPass(SLOW);
    await expect(log.getByText('Delivered')).toBeVisible();
    await log.getByRole('button', { name: /^Show the attempt of / }).click();
    await expect(log.getByText(email)).toBeVisible();
    await expect(log.getByText('"by": "journey receiver"')).toBeVisible();
    await expect(log.getByRole('button', { name: /^Hide the attempt of / })).toHaveAttribute('aria-expanded', 'true');
    await screenshot(page, 'console-webhook-delivery-log');

    // Edit the endpoint; the header row stays.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the webhook' });
    await expect(edit.getByRole('textbox', { name: 'Header name' })).toHaveValue('X-Journey');
    await edit.getByLabel('Endpoint').fill(`${receiver.url}/hooks/second`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText(`${receiver.url}/hooks/second`).first()).toBeVisible();

    // Disable in place.
    const enabled = page.getByRole('switch', { name: /^Enabled: user.access_revoked/ });
    await enabled.click({ force: true });
    await expect(enabled).not.toBeChecked();
    await expect(page.getByText('Webhook disabled.')).toBeVisible();
    const listed = await adminCall(consoleServer, 'query { _webhooks(params: {}) { webhooks { endpoint enabled headers } } }');
    expect(listed._webhooks.webhooks).toEqual([{ endpoint: `${receiver.url}/hooks/second`, enabled: false, headers: { 'X-Journey': 'console' } }]);

    // Delete after the confirmation.
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the webhook?' });
    await confirm.getByRole('button', { name: 'Delete permanently' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No webhooks yet.', { exact: false })).toBeVisible();
  } finally {
    await receiver.close();
  }
});
