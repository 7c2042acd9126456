/**
 * Login UI: "I lost my authenticator" (specification part 3 lock_mfa; an account locked so needs an
 * administrator's reset). A person whose only second factor is the authenticator app opens the code
 * screen, reports it lost and confirms; the screen says the step is locked and who can undo it, and the
 * next password sign-in is refused with the server's reason in plain words.
 */
import { expect, screenshot, test, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, signIn } from './support/login-helpers.ts';
import { enrolTotpAsPage, signOut, signUpInBrowser } from './support/mfa-helpers.ts';

test('lock the second factor from the code screen; the next sign-in is refused', async ({ page, portcullis }) => {
  const email = uniqueEmail('lock');
  await signUpInBrowser(page, portcullis, email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await enrolTotpAsPage(page, portcullis);
  await signOut(page);

  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your authentication code');
  await page.getByRole('button', { name: 'I lost my authenticator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lost your authenticator?' });
  await expect(dialog).toContainText('an administrator must then reset your second factor');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel(/^Authentication code/), 'cancelled: the code screen is as it was').toBeVisible();

  await page.getByRole('button', { name: 'I lost my authenticator' }).click();
  await expect(dialog.getByRole('button', { name: 'Lock two-step sign-in' })).toBeVisible();
  await screenshot(page, 'login-mfa-lock-confirm');
  await dialog.getByRole('button', { name: 'Lock two-step sign-in' }).click();
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
