/**
 * Login UI: the authenticator app as a second factor (docs/api-overview.md#states-and-transitions, "TOTP enrollment" and the
 * withheld token; docs/operations.md#totp_mfa_setup, verify_otp with is_totp). A new account sets up the app from its
 * Security page (QR code and key, ten recovery codes shown once, then a first code), signs out, and from
 * then on a password sign-in stops at the code screen: a wrong code is refused, a right one signs in, and a
 * recovery code does too. Codes are computed here from the key the page showed (RFC 6238).
 */
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { expect, test } from './support/fixtures.ts';
import { STRONG_PASSWORD, signIn, signUpInBrowser } from './support/login-helpers.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/modules/mfa/totp.ts';

/**
 * A code the server takes once the enrolment's own code is spent: the next step's (one step of skew is
 * accepted, and a step at or before the last used one is refused as a replay).
 */
const nextStepCode = (secret: string) => totpCode(secret, new Date(Date.now() + TOTP_PERIOD_SECONDS * 1000));

test('set up an authenticator app, then sign in with a code and with a recovery code', async ({ page, portcullis }) => {
  const email = uniqueEmail('totp');
  await signUpInBrowser(page, portcullis.url, email);

  await page.getByRole('link', { name: 'Security and sign-in methods' }).click();
  await expect(page).toHaveURL(/\/app\/security$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Security');
  await expect(page.getByTestId('security-totp')).toContainText('Not set up');
  await screenshot(page, 'login-security');

  await page.getByRole('button', { name: 'Set up the app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await screenshot(page, 'login-mfa-totp-setup');
  await dialog.getByRole('button', { name: 'Continue' }).click();

  const codes = (await dialog.getByTestId('recovery-codes').getByRole('listitem').allInnerTexts()).map((code) => code.trim());
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
  await expect(dialog.getByRole('button', { name: 'Continue' }), 'the codes must be saved first').toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Download' })).toBeVisible();
  await screenshot(page, 'login-mfa-recovery-codes');
  await dialog.getByLabel('I have saved my recovery codes').check();
  await dialog.getByRole('button', { name: 'Continue' }).click();

  await dialog.getByLabel(/^Authentication code/).fill('000000' === totpCode(secret, new Date()) ? '111111' : '000000');
  await dialog.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(dialog.getByTestId('form-error')).toContainText('Wrong or expired code');
  await dialog.getByLabel(/^Authentication code/).fill(totpCode(secret, new Date()));
  await dialog.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Authenticator app added' })).toBeVisible();
  await expect(page.getByTestId('security-totp')).toContainText('On');
  await expect(page.getByRole('button', { name: 'Set up the app' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Back to your account' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Acme Cloud');

  // The password alone no longer signs in: the code screen comes next, and the session only after it.
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/app\/mfa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your authentication code');
  await expect(page.getByRole('button', { name: 'I lost my authenticator' })).toBeVisible();
  const beforeCode = await page.request.post(`${portcullis.url}/graphql`, {
    headers: { origin: portcullis.url },
    data: { query: '{ session { user { id } } }' },
  });
  expect(((await beforeCode.json()) as { errors?: unknown[] }).errors, 'no session before the second factor').toBeTruthy();
  await page.getByLabel(/^Authentication code/).fill('12345');
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByText('Enter the 6-digit code.')).toBeVisible();
  await screenshot(page, 'login-mfa-totp');
  await page.getByLabel(/^Authentication code/).fill(nextStepCode(secret));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);

  // A recovery code instead of the app: it works once.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your authentication code');
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel(/^Recovery code/).fill(codes[3]!.toLowerCase());
  await screenshot(page, 'login-mfa-recovery');
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, email, STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel(/^Recovery code/).fill(codes[3]!);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByTestId('form-error')).toContainText('Wrong or expired code');
});
