/**
 * Console sign-in: a signed-out visitor sees only the sign-in form, never the console; a
 * wrong admin secret shows the server's own message; the right one opens the console, which survives a
 * reload (the admin cookie) and sign out returns to the form.
 */
import { screenshot } from './support/fixtures.ts';
import { test, expect } from './support/console-fixtures.ts';

test('admin signs in with the secret, the wrong one is refused with the server message, sign out ends it', async ({ page, consoleServer }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('401')) errors.push(message.text());
  });
  await page.goto(`${consoleServer.url}/dashboard/users`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acme Cloud console');
  // Only the form: no navigation and no user data for a visitor without the admin cookie.
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);
  await screenshot(page, 'console-sign-in');

  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter the admin secret.')).toBeVisible();

  await page.getByLabel('Admin secret').fill('not-the-admin-secret');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid admin secret');
  await expect(page.getByRole('navigation')).toHaveCount(0);

  await page.getByLabel('Admin secret').fill(consoleServer.adminSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  for (const section of ['Users', 'Verification requests', 'Authorization (FGA)', 'Settings', 'Playground']) {
    await expect(nav.getByRole('link', { name: section })).toBeVisible();
  }
  // The admin cookie is HttpOnly and SameSite=Strict; nothing of it is readable by script.
  const cookies = await page.context().cookies();
  const admin = cookies.find((cookie) => cookie.name.startsWith('service'));
  expect(admin?.httpOnly).toBe(true);
  expect(admin?.sameSite).toBe('Strict');
  expect(await page.evaluate(() => document.cookie)).toBe('');
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).not.toContain(consoleServer.adminSecret);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Admin secret')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Admin secret')).toBeVisible();
  expect(errors).toEqual([]);
});

test('settings show what _admin_meta reports, and the console works at phone width', async ({ page, consoleServer }) => {
  await page.goto(`${consoleServer.url}/dashboard/settings`);
  await page.getByLabel('Admin secret').fill(consoleServer.adminSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const signIn = page.getByRole('table', { name: 'Sign-in' });
  await expect(signIn.getByRole('row', { name: /Email and password/ })).toContainText('On');
  await expect(page.getByRole('table', { name: 'Social sign-in providers' }).getByRole('row', { name: /Google/ })).toContainText('Off');
  await expect(page.getByText('sea-client', { exact: true })).toBeVisible();
  for (const role of ['editor', 'auditor']) await expect(page.getByText(role, { exact: true }).first()).toBeVisible();
  await screenshot(page, 'console-settings');

  await page.setViewportSize({ width: 375, height: 740 });
  // The navbar folds away behind the burger on a phone.
  await expect(page.getByRole('link', { name: 'Users' })).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('link', { name: 'Verification requests' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verification requests' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, 'console-phone');

  // The admin cookie goes away (expiry, sign out elsewhere): the next read brings back the sign-in form.
  await page.context().clearCookies();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByLabel('Admin secret')).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);
});
