/**
 * Login UI: "I lost my authenticator" (docs/api-overview.md#states-and-transitions lock_mfa; an account locked so needs an
 * administrator's reset). A person whose only second factor is the authenticator app opens the code
 * screen, reports it lost and confirms; a code goes to the account's proven email address (the pending
 * sign-in proves the password only, so the password alone must not lock the owner out), the dialog asks for
 * it, refuses a wrong one in its own error, and the mailed code locks: the screen says the step is locked and
 * who can undo it, and the next password sign-in is refused with the server's reason in plain words. An
 * account with no proven address or number is told so in the dialog, and nothing is locked.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test, uniqueEmail, type Portcullis } from './support/fixtures.ts';
import { expectNoHorizontalScroll, STRONG_PASSWORD, signIn } from './support/login-helpers.ts';
import { enrolTotpAsPage, graphqlAsPage, newCodeMailedTo, nextStepCode, signOut, signUpInBrowser } from './support/mfa-helpers.ts';

/** An account made in the browser with an authenticator app as its only factor; answers the app's secret. */
async function appOnlyAccount(page: Page, portcullis: Portcullis, email: string, { proven }: { proven: boolean }): Promise<string> {
  await signUpInBrowser(page, portcullis, email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  const secret = await enrolTotpAsPage(page, portcullis);
  if (proven) {
    // Setup, not the journey: an administrator vouches for the address (update_user email_verified), which
    // makes it a proven address the confirmation code can go to; a signup without email verification is not.
    const { profile } = await graphqlAsPage(page, portcullis, 'query { profile { id } }');
    const vouched = await page.request.post(`${portcullis.url}/v1/admin/update_user`, {
      headers: { origin: portcullis.url, 'x-service-admin-secret': portcullis.adminSecret },
      data: { id: profile.id, email_verified: true },
    });
    expect(vouched.status(), await vouched.text()).toBe(200);
  }
  await signOut(page);
  return secret;
}

test('lock the second factor from the code screen with the mailed code; the next sign-in is refused', async ({ page, portcullis }) => {
  const email = uniqueEmail('lock');
  await appOnlyAccount(page, portcullis, email, { proven: true });

  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your authentication code');
  await page.getByRole('button', { name: 'I lost my authenticator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lost your authenticator?' });
  await expect(dialog).toContainText('we first send a code to your email address or phone number');
  await expect(dialog).toContainText('an administrator must then reset your second factor');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel(/^Authentication code/), 'cancelled: the code screen is as it was').toBeVisible();

  await page.getByRole('button', { name: 'I lost my authenticator' }).click();
  await expect(dialog.getByRole('button', { name: 'Lock two-step sign-in' })).toBeVisible();
  await screenshot(page, 'login-mfa-lock-confirm');
  await dialog.getByRole('button', { name: 'Lock two-step sign-in' }).click();

  // The first call sent a code; nothing is locked yet, and the dialog asks for the code.
  await expect(dialog).toContainText('Enter the code we sent to your email address or phone number to confirm.');
  const codeField = dialog.getByLabel(/^Verification code/);
  await expect(codeField, 'the code field takes the focus').toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Confirm the lock' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Send a new code' })).toBeFocused();
  await screenshot(page, 'login-mfa-lock-code');
  const code = await newCodeMailedTo(portcullis, email, new Set());

  await codeField.fill(code === '000000' ? '111111' : '000000');
  await codeField.press('Enter');
  const refusal = dialog.getByTestId('form-error');
  await expect(refusal).toContainText('The lock was not confirmed');
  await expect(refusal).toContainText('Invalid or expired otp');
  await expect(page.getByRole('heading', { level: 1 }), 'a wrong code locks nothing').toHaveText('Enter your authentication code');
  await page.setViewportSize({ width: 375, height: 740 });
  await expectNoHorizontalScroll(page);
  await screenshot(page, 'login-mfa-lock-code-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await codeField.fill(code);
  await dialog.getByRole('button', { name: 'Confirm the lock' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Two-step sign-in locked');
  await expect(page.getByTestId('mfa-locked')).toContainText('Ask your administrator to reset it');
  await expect(page.getByLabel(/^Authentication code/), 'no code can finish this sign-in now').toHaveCount(0);
  await screenshot(page, 'login-mfa-locked');

  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId('form-error')).toContainText('Multi-factor authentication is locked for this account: an administrator must reset it.');
  await expect(page).not.toHaveURL(/\/mfa/);
  await screenshot(page, 'login-mfa-locked-refused');
});

test('without a proven email address or phone number the dialog says why, and the app still signs in', async ({ page, portcullis }) => {
  const email = uniqueEmail('lock-unproven');
  const secret = await appOnlyAccount(page, portcullis, email, { proven: false });

  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your authentication code');
  await page.getByRole('button', { name: 'I lost my authenticator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lost your authenticator?' });
  await dialog.getByRole('button', { name: 'Lock two-step sign-in' }).click();
  const refusal = dialog.getByTestId('form-error');
  await expect(refusal).toContainText('We could not lock your account');
  await expect(refusal).toContainText('This account has no proven email address or phone number to confirm the lock with: ask an administrator');
  await expect(dialog.getByLabel(/^Verification code/), 'no code was sent, none is asked for').toHaveCount(0);
  await screenshot(page, 'login-mfa-lock-no-contact');

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByLabel(/^Authentication code/).fill(nextStepCode(secret));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('heading', { level: 1 }), 'nothing was locked').toHaveText('You are signed in');
});
