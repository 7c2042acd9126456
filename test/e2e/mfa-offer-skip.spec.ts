/**
 * Login UI: the first-time offer and its Skip (docs/api-overview.md#states-and-transitions, "MFA offer pending, token withheld";
 * skip_mfa_setup). A person turns on "ask for a second step" on their Security page with no factor set up;
 * their next sign-in stops at the offer (the methods the server put in it, the authenticator app among
 * them, and "Not now"); Not now signs them in, and the sign-in after that has no offer (the server records
 * the refusal).
 */
import { expect, screenshot, test, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, signIn } from './support/login-helpers.ts';
import { signOut, signUpInBrowser } from './support/mfa-helpers.ts';

test('a person who asked for a second step is offered one, skips it, and is not offered it again', async ({ page, portcullis }) => {
  const email = uniqueEmail('offer-skip');
  await signUpInBrowser(page, portcullis, email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await page.getByRole('link', { name: 'Security and sign-in methods' }).click();
  const ask = page.getByRole('switch', { name: 'Ask for a second step when I sign in' });
  await expect(ask).not.toBeChecked();
  const saved = page.waitForResponse((response) => (response.request().postData() ?? '').includes(' update_profile('));
  // A click, then a waiting assertion: check() reads the state back at once, before React has re-rendered
  // the switch under a loaded machine.
  await ask.click({ force: true });
  expect((await saved).ok()).toBe(true);
  await expect(ask).toBeChecked();
  await expect(ask).toBeEnabled();

  await page.getByRole('link', { name: 'Back to your account' }).click();
  await signOut(page);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/app\/mfa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Protect your account');
  const offer = page.getByRole('list', { name: 'Protect your account' });
  await expect(offer.getByRole('button', { name: 'Authenticator app' })).toBeVisible();
  await expect(offer.getByRole('button', { name: 'Email code' })).toBeVisible();
  await screenshot(page, 'login-mfa-offer');

  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);

  await signOut(page);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page).not.toHaveURL(/\/mfa/);
});
