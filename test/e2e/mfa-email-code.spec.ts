/**
 * Login UI: codes by email as the second factor
 * (docs/api-overview.md#states-and-transitions, "MFA enrollment created, unverified (email OTP)":
 * email_otp_mfa_setup sends a code, verify_otp confirms it; docs/operations.md#verify_otp / resend_otp
 * with the mfa cookie). A new account sets the factor up from its Security page with the mailed code; its
 * next password sign-in stops at the email-code screen (the code leaves at once when codes are the only
 * factor), shows the resend count-down, and the mailed code signs in. Codes are read from the SMTP sink.
 */
import type { ReceivedEmail } from '../support/smtp-sink.ts';
import { expect, screenshot, test, uniqueEmail, type Portcullis } from './support/fixtures.ts';
import { STRONG_PASSWORD, signIn, signUpInBrowser } from './support/login-helpers.ts';

/** The six-digit code of the first code mail to `to` that is not one of `seen`. */
async function newCodeMailedTo(portcullis: Portcullis, to: string, seen: Set<ReceivedEmail>): Promise<string> {
  const mail = await portcullis.smtp.waitFor((m) => !seen.has(m) && m.envelope.to.includes(to) && /verification code/i.test(m.subject), 15_000);
  seen.add(mail);
  const code = /\b(\d{6})\b/.exec(`${mail.text ?? ''}\n${mail.html ?? ''}`)?.[1];
  if (!code) throw new Error(`no six-digit code in "${mail.subject}"`);
  return code;
}

test('set up email codes, then pass the email-code step after a password', async ({ page, portcullis }) => {
  const email = uniqueEmail('email-code');
  const seen = new Set<ReceivedEmail>();
  await signUpInBrowser(page, portcullis.url, email);

  await page.getByRole('link', { name: 'Security and sign-in methods' }).click();
  await expect(page.getByTestId('security-email_otp')).toContainText('Not set up');
  await page.getByRole('button', { name: 'Set up email codes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set up email codes' });
  await expect(dialog).toContainText(email);
  await dialog.getByRole('button', { name: 'Email me a code' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: /new code in \d+ s/ })).toBeVisible();
  await dialog.getByLabel(/^Verification code/).fill(await newCodeMailedTo(portcullis, email, seen));
  await dialog.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Email code added' })).toBeVisible();
  await expect(page.getByTestId('security-email_otp')).toContainText('On');

  await page.getByRole('link', { name: 'Back to your account' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/app\/mfa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
  await expect(page.getByTestId('resend-cool-down')).toContainText(/You can ask for a new code in \d+ s/);
  const code = await newCodeMailedTo(portcullis, email, seen);
  await page.getByLabel(/^Verification code/).fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByTestId('form-error')).toContainText('Wrong or expired code');
  await screenshot(page, 'login-mfa-email');
  await page.getByLabel(/^Verification code/).fill(code);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
});
