/**
 * The admin journey over the audit log (README "Audit log"): after an admin revokes a user's access through
 * the API, the log filtered by the action admin.revoke_access shows only such entries, newest first; a row
 * opens to its metadata (the request's field names, never a value); a window that ended before shows none.
 */
import { screenshot } from './support/fixtures.ts';
import { adminCall, signUpUser } from './support/console-fixtures.ts';
import { test, expect } from './support/console-ops-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

test('admin filters the audit log by action and opens an entry', async ({ page, consoleServer }) => {
  test.setTimeout(120_000);
  const user = await signUpUser(consoleServer, `audited-${Date.now().toString(36)}@example.com`);
  await adminCall(consoleServer, 'mutation($p: UpdateAccessRequest!) { _revoke_access(param: $p) { message } }', { p: { user_id: user.id } });

  await signInToConsole(page, consoleServer);
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit log entries, newest first' });
  // The console's own sign-in is the newest entry.
  await expect(table.getByRole('row').nth(1)).toContainText('admin.admin_login');

  await page.getByLabel('Action').fill('admin.revoke_access');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/[?&]action=admin.revoke_access/);
  await expect(table.getByRole('row')).toHaveCount(2); // header + the one revocation
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText('admin.revoke_access');
  await expect(row).toContainText(user.id);

  await row.getByRole('button', { name: /^Show the details of admin.revoke_access/ }).click();
  const details = table.getByRole('row').nth(2);
  await expect(details.getByText('Metadata')).toBeVisible();
  await expect(details.locator('pre')).toContainText('"user_id"');
  await expect(details).toContainText('super_admin');
  await screenshot(page, 'console-audit-log');

  // The inclusive window: one that ended an hour before the revocation holds nothing.
  const earlier = new Date(Date.now() - 3_600_000);
  const local = new Date(earlier.getTime() - earlier.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await page.getByLabel('To', { exact: true }).fill(local);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText('No entries match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByLabel('Action')).toHaveValue('');
  await expect(table.getByRole('row').nth(1)).toContainText('admin.admin_login');
});
