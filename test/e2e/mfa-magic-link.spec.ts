/**
 * Login UI: an emailed sign-in link for a user with an authenticator app (--enable-magic-link-login). The
 * link's GET /verify_email is stopped by the MFA gate and lands on the login UI's MFA step
 * (/app/mfa?step=verify&methods=totp with the round trip, server/transports/http/mfa-step-url.ts) with the
 * mfa cookie; the app's code completes the sign-in, and the browser goes on to the application that asked,
 * with its state.
 */
import { linkIn, screenshot, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, createVerifiedAccount, signIn } from './support/login-helpers.ts';
import { enrolTotpAsPage, nextStepCode, signOut } from './support/mfa-helpers.ts';
import { expect, test } from './support/login-server.ts';

test('a magic link for a user with an authenticator app opens the code step, which signs in and returns to the application', async ({ page, portcullis }) => {
  const email = uniqueEmail('magic-totp');
  await createVerifiedAccount(portcullis, email);
  await page.goto(`${portcullis.url}/app`);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  const secret = await enrolTotpAsPage(page, portcullis);
  await signOut(page);

  await page.goto(`${portcullis.app.origin}/`);
  await page.locator('#sign-in').click();
  const state = portcullis.app.states.at(-1)!;
  await page.getByRole('link', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByTestId('magic-link-sent')).toBeVisible();

  const mail = await portcullis.mailTo(email, /sign-in link/);
  await page.goto(linkIn(mail, `${portcullis.url}/verify_email`));
  await expect(page).toHaveURL(new RegExp(`^${portcullis.url}/app/mfa\\?step=verify&methods=totp&redirect_uri=`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your authentication code');
  await page.getByLabel(/^Authentication code/).fill(nextStepCode(secret));
  await screenshot(page, 'login-mfa-magic-link');
  await page.getByRole('button', { name: 'Verify and sign in' }).click();

  await expect(page.locator('#who')).toHaveText(email);
  const landed = new URL(page.url());
  expect(landed.origin).toBe(portcullis.app.origin);
  expect(landed.searchParams.get('state')).toBe(state);
});
