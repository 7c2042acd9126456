/**
 * Login UI on a server started with --enforce-mfa (docs/api-overview.md#states-and-transitions: every user without a factor is
 * offered one, the token withheld, and may not skip it). A new account's signup stops at the offer, which
 * has no "Not now"; the person sets up the authenticator app from the enrolment the offer's answer carried
 * (should_show_totp_screen with authenticator_secret: no totp_mfa_setup call), confirms with a code
 * computed here from the key the page shows (RFC 6238), and lands signed in. The next password sign-in asks
 * for a code from the app (the same flag without a secret is the challenge).
 */
import { test as base, expect, portcullisFixture, screenshot, uniqueEmail, type Portcullis } from './support/fixtures.ts';
import { STRONG_PASSWORD, signIn } from './support/login-helpers.ts';
import { nextStepCode, signOut, signUpInBrowser } from './support/mfa-helpers.ts';
import { totpCode } from '../../server/modules/mfa/totp.ts';

const test = base.extend<object, { portcullis: Portcullis }>({
  portcullis: [portcullisFixture(['--enforce-mfa']), { scope: 'worker', timeout: 60_000 }],
});

test('signup stops at an offer without Skip; the authenticator app set up from it signs in', async ({ page, portcullis }) => {
  const email = uniqueEmail('enforced');
  const setupCalls: string[] = [];
  page.on('request', (request) => {
    if ((request.postData() ?? '').includes('totp_mfa_setup')) setupCalls.push(request.url());
  });
  await signUpInBrowser(page, portcullis, email);
  await expect(page).toHaveURL(/\/app\/mfa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Protect your account');
  await expect(page.getByText('This organization requires a second step at sign-in.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Not now' })).toHaveCount(0);
  await screenshot(page, 'login-mfa-offer-enforced');

  await page.getByRole('list', { name: 'Protect your account' }).getByRole('button', { name: 'Authenticator app' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up an authenticator app');
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await page.getByLabel('I have saved my recovery codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel(/^Authentication code/).fill(totpCode(secret, new Date()));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
  expect(setupCalls, 'the offer carried the enrolment; no second setup replaced its key').toEqual([]);

  await signOut(page);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your authentication code');
  await page.getByLabel(/^Authentication code/).fill(nextStepCode(secret));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
});
