/**
 * A server without SMTP and without the SMS provider: the login page offers no "Forgot password?" (no reset
 * could reach anyone), the reset page opened directly explains that in an end user's words (never the
 * operator's "set --smtp-host"), and the console tells the administrator which flags configure email, on the
 * first page after signing in and on the settings page. The server says which channels work in meta
 * (is_email_service_enabled, is_sms_service_enabled).
 */
import { test as base, expect } from '@playwright/test';
import { portcullisFixture, screenshot, type Portcullis } from './support/fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

// The shared fixture configures the SMTP and SMS sinks; empty values given last switch both channels off.
const test = base.extend<object, { portcullis: Portcullis }>({
  portcullis: [portcullisFixture(['--smtp-host', '', '--twilio-account-sid', '']), { scope: 'worker', timeout: 60_000 }],
});

test('the login page offers no password reset, and the reset page says why', async ({ page, portcullis }) => {
  await page.goto(`${portcullis.url}/app`);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveCount(0);

  await page.goto(`${portcullis.url}/app/forgot-password`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Password reset is not available');
  await expect(page.getByTestId('forgot-password-unavailable')).toContainText('Ask the administrator of Acme Cloud');
  await expect(page.getByText(/smtp|--/i)).toHaveCount(0);
  await screenshot(page, 'login-forgot-password-unavailable');
});

test('the console tells the administrator that email is not configured and how to configure it', async ({ page, portcullis }) => {
  await signInToConsole(page, { url: portcullis.url, adminSecret: portcullis.adminSecret, output: portcullis.output });
  const notice = page.getByTestId('email-not-configured');
  await expect(notice).toContainText('Email is not configured');
  await expect(notice).toContainText('--smtp-host');
  await expect(notice).toContainText('--smtp-sender-email');

  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Settings' }).click();
  const channels = page.getByRole('table', { name: 'Outgoing messages' });
  await expect(channels.getByRole('row', { name: /Email \(SMTP\)/ })).toContainText('Off');
  await expect(channels.getByRole('row', { name: /Text messages \(SMS\)/ })).toContainText('Off');
  await expect(page.getByTestId('email-not-configured')).toBeVisible();
  await screenshot(page, 'console-email-not-configured');
});
