/**
 * Adding a user from the console without email (`_create_user`), then signing in as them in the login UI:
 * - with an initial password (generated in the dialog and shown to pass on): the first sign-in asks for a
 *   password of their own before anything else, then signs in; the initial password no longer works;
 * - with a set-password link, shown once in a dialog that Escape does not close: the link opens the login
 *   UI's reset page, sets the password once, and that password signs in; the link does not work twice.
 */
import type { Browser, Page } from '@playwright/test';
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { adminCall, expect, test } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';
import { expectNoHorizontalScroll } from './support/login-helpers.ts';

const OWN_PASSWORD = 'Own-Choice-Pass-2026';

async function openAddUser(page: Page) {
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invite members' })).toBeVisible();
  await page.getByRole('button', { name: 'Add user' }).first().click();
  return page.getByRole('dialog', { name: 'Add a user' });
}

/** A fresh browser context: the person is not the administrator. */
async function personPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function signInAtLoginUi(page: Page, url: string, email: string, password: string) {
  await page.goto(`${url}/app`);
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('admin adds a user with an initial password; their first sign-in makes them choose their own', async ({ page, browser, consoleServer }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('added');
  await signInToConsole(page, consoleServer);
  const dialog = await openAddUser(page);

  // Nothing to reach the person by: the form says so beside the field.
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('Enter an email address or a phone number.')).toBeVisible();
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByLabel('Given name').fill('Grace');
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('Enter an initial password, or generate one.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Generate' }).click();
  const initial = await dialog.getByLabel(/^Initial password/).inputValue();
  expect(initial).toMatch(/^\S{20}$/);
  await screenshot(page, 'console-add-user');
  await dialog.getByRole('button', { name: 'Add user' }).click();

  const created = page.getByRole('dialog', { name: 'User added' });
  await expect(created.getByText('They must choose a new password at first sign-in')).toBeVisible();
  await expect(created.getByTestId('initial-password')).toHaveText(initial);
  await created.getByRole('button', { name: 'Open the user' }).click();
  await expect(page.getByRole('heading', { level: 1, name: email })).toBeVisible();
  const stored = await adminCall(consoleServer, 'query($p: GetUserRequest!) { _user(params: $p) { given_name roles email_verified } }', { p: { email } });
  expect(stored._user).toEqual({ given_name: 'Grace', roles: ['user'], email_verified: false });

  const person = await personPage(browser);
  await signInAtLoginUi(person, consoleServer.url, email, initial);
  await expect(person.getByRole('heading', { level: 1 })).toHaveText('Choose your own password');
  await person.getByLabel(/^New password/).fill(initial);
  await person.getByLabel('Confirm password').fill(initial);
  await person.getByRole('button', { name: 'Save password and sign in' }).click();
  await expect(person.getByTestId('form-error')).toContainText('must differ');
  await person.getByLabel(/^New password/).fill(OWN_PASSWORD);
  await person.getByLabel('Confirm password').fill(OWN_PASSWORD);
  await screenshot(person, 'login-initial-password');
  await person.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalScroll(person);
  await person.setViewportSize({ width: 1280, height: 800 });
  await person.getByRole('button', { name: 'Save password and sign in' }).click();
  await expect(person.getByTestId('signed-in-email')).toHaveText(email);

  // The initial password is gone; their own one signs in directly.
  const again = await personPage(browser);
  await signInAtLoginUi(again, consoleServer.url, email, initial);
  await expect(again.getByTestId('form-error')).toContainText('Invalid credentials');
  await signInAtLoginUi(again, consoleServer.url, email, OWN_PASSWORD);
  await expect(again.getByTestId('signed-in-email')).toHaveText(email);
});

test('admin adds a user with a set-password link, shown once; the link sets their password once', async ({ page, browser, consoleServer }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('linked');
  await signInToConsole(page, consoleServer);
  const dialog = await openAddUser(page);
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByText('Make a set-password link', { exact: true }).click();
  await expect(dialog.getByText(/It works once and expires after 7 days/)).toBeVisible();
  const roles = dialog.getByRole('combobox', { name: 'Roles' });
  await roles.click();
  await page.getByRole('option', { name: 'auditor' }).click();
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: 'Add user' }).click();

  const created = page.getByRole('dialog', { name: 'User added' });
  await expect(created.getByText('Copy the link now')).toBeVisible();
  const link = (await created.getByTestId('set-password-link').textContent())!.trim();
  expect(link.startsWith(`${consoleServer.url}/app/reset-password?token=`)).toBe(true);
  await expect(created.getByRole('button', { name: 'Copy: Set-password link' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(created).toBeVisible();
  await screenshot(page, 'console-add-user-link');
  await created.getByRole('button', { name: 'I have copied the link' }).click();
  await expect(created).toBeHidden();
  expect(await page.content()).not.toContain(link);
  const stored = await adminCall(consoleServer, 'query($p: GetUserRequest!) { _user(params: $p) { roles email_verified } }', { p: { email } });
  expect(stored._user).toEqual({ roles: ['user', 'auditor'], email_verified: false });

  const person = await personPage(browser);
  await person.goto(link);
  await expect(person.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
  await person.getByLabel(/^New password/).fill(OWN_PASSWORD);
  await person.getByLabel('Confirm password').fill(OWN_PASSWORD);
  await person.getByRole('button', { name: 'Save new password' }).click();
  await expect(person.getByTestId('reset-password-done')).toBeVisible();
  await signInAtLoginUi(person, consoleServer.url, email, OWN_PASSWORD);
  await expect(person.getByTestId('signed-in-email')).toHaveText(email);

  // Once only.
  const later = await personPage(browser);
  await later.goto(link);
  await later.getByLabel(/^New password/).fill(`${OWN_PASSWORD}!`);
  await later.getByLabel('Confirm password').fill(`${OWN_PASSWORD}!`);
  await later.getByRole('button', { name: 'Save new password' }).click();
  await expect(later.getByTestId('form-error')).toContainText('Invalid or expired token');
});
