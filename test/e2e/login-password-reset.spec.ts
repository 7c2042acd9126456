/**
 * Login UI: forgot password → the mailed link opens /app/reset-password → the new password signs in and
 * the old one no longer does. The token leaves the address bar once read.
 */
import { linkIn, screenshot, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, createVerifiedAccount, signIn } from './support/login-helpers.ts';
import { expect, test } from './support/login-server.ts';

const NEW_PASSWORD = 'Fresh-Start-2026';

test('forgot password, reset from the mail, new password works and the old one fails', async ({ page, portcullis }) => {
  const email = uniqueEmail('reset');
  await createVerifiedAccount(portcullis, email);

  await page.goto(`${portcullis.url}/app`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reset your password');
  await page.getByLabel('Email or phone number').fill(email);
  await screenshot(page, 'login-forgot-password');
  await page.getByRole('button', { name: 'Send reset instructions' }).click();
  await expect(page.getByTestId('forgot-password-sent')).toContainText(email);

  const mail = await portcullis.mailTo(email, /reset/i);
  const link = linkIn(mail, `${portcullis.url}/app/reset-password`);
  expect(new URL(link).searchParams.get('token')).toBeTruthy();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
  await expect(page).toHaveURL(`${portcullis.url}/app/reset-password`);

  await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
  await screenshot(page, 'login-reset-password');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByTestId('reset-password-done')).toContainText('Password updated successfully.');

  await page.getByRole('button', { name: 'Continue to sign in' }).click();
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId('form-error')).toContainText('Invalid credentials');

  await signIn(page, email, NEW_PASSWORD);
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);

  // The link works once.
  await page.goto(link);
  await page.getByLabel(/^New password/).fill(`${NEW_PASSWORD}!`);
  await page.getByLabel('Confirm password').fill(`${NEW_PASSWORD}!`);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByTestId('form-error')).toBeVisible();
});
