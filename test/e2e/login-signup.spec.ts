/**
 * Login UI: sign up with email on a server that verifies addresses (a commonly used password is refused
 * first, by the field), open the emailed link (GET /verify_email signs in and lands on /app), see the
 * signed-in page, sign out, sign in again.
 */
import { linkIn, screenshot, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, signIn } from './support/login-helpers.ts';
import { expect, test } from './support/login-server.ts';

test('sign up, verify the email from the mail, sign out and sign in again', async ({ page, portcullis }) => {
  const email = uniqueEmail('signup');
  await page.goto(`${portcullis.url}/app`);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/app\/signup$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your Acme Cloud account');
  await expect(page).toHaveTitle('Create your Acme Cloud account · Acme Cloud');

  // The policy is checked before the round trip and shown as a checklist.
  await page.getByLabel('Email or phone number').fill(email);
  await page.getByLabel(/^Password/).fill('short');
  await page.getByLabel('Confirm password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Use 6 to 128 characters.')).toBeVisible();

  // A commonly used password meets every rule the page can check; the server refuses it on submit, and the
  // field and its checklist entry say so (docs/passwords.md#commonly-used-passwords).
  const rules = page.getByRole('list').filter({ hasText: 'not to be a commonly used password' });
  await expect(rules).toContainText('not to be a commonly used password (checked when you submit)');
  await page.getByLabel(/^Password/).fill('P@ssw0rd');
  await page.getByLabel('Confirm password').fill('P@ssw0rd');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('This password is too common: attackers try it first. Choose another.')).toBeVisible();
  await expect(rules).toContainText('not to be a commonly used password (not met)');
  await expect(page.getByTestId('form-error')).toHaveCount(0);
  await screenshot(page, 'login-signup-common-password');

  await page.getByLabel(/^Password/).fill(STRONG_PASSWORD);
  await expect(page.getByText('This password is too common')).toHaveCount(0);
  await page.getByLabel('Confirm password').fill(`${STRONG_PASSWORD}x`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('The two passwords do not match.')).toBeVisible();
  await page.getByLabel('Confirm password').fill(STRONG_PASSWORD);
  await screenshot(page, 'login-signup');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
  await expect(page.getByTestId('check-email')).toContainText(email);
  await screenshot(page, 'login-check-email');

  // A new link can be asked for from this screen; the newest one is used below.
  const first = await portcullis.mailTo(email, /Verify your email/);
  await page.getByRole('button', { name: 'Send a new link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'A new link is on its way' })).toBeVisible();
  const mail = await portcullis.smtp.waitFor((m) => m !== first && m.envelope.to.includes(email) && /Verify your email/.test(m.subject), 15_000);
  const link = linkIn(mail, `${portcullis.url}/verify_email`);

  // Before the link is opened the account cannot sign in, and the form offers a new link.
  await page.goto(`${portcullis.url}/app`);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId('form-error')).toContainText('Email not verified');
  await expect(page.getByRole('button', { name: 'Resend the verification email' })).toBeVisible();

  await page.goto(link);
  await expect(page).toHaveURL(`${portcullis.url}/app`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
  await expect(page.getByTestId('signed-in')).toContainText('Verified');
  await screenshot(page, 'login-signed-in');

  // A reload shows the signed-in page again: the session is the server's cookie, not page state.
  await page.reload();
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Acme Cloud');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Acme Cloud');

  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
});
