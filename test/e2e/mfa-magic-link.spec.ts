/**
 * Login UI: an emailed sign-in link for a user with an authenticator app (--enable-magic-link-login). The
 * link's GET /verify_email is stopped by the MFA gate and lands on the login UI's MFA step
 * (/app/mfa?step=verify&methods=totp with the round trip, server/modules/accounts/mfa-step-url.ts) with the
 * mfa cookie; the app's code completes the sign-in, and the browser goes on to the application that asked,
 * with its state. A first-time offer arrives the same way (step=offer) with no secret in the URL: the app's
 * enrolment is asked for with the offer's cookie (totp_mfa_setup), and its first code signs in.
 */
import { linkIn, screenshot, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, createVerifiedAccount, signIn } from './support/login-helpers.ts';
import { enrolTotpAsPage, graphqlAsPage, nextStepCode, signOut } from './support/mfa-helpers.ts';
import { totpCode } from '../../server/modules/mfa/totp.ts';
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

test('a magic link for a user who asked for a second step opens the offer, and the app set up there signs in', async ({ page, portcullis }) => {
  const email = uniqueEmail('magic-offer');
  await createVerifiedAccount(portcullis, email);
  await page.goto(`${portcullis.url}/app`);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await graphqlAsPage(page, portcullis, 'mutation { update_profile(params: {is_multi_factor_auth_enabled: true}) { message } }');
  await signOut(page);

  await page.getByRole('link', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByTestId('magic-link-sent')).toBeVisible();
  const mail = await portcullis.mailTo(email, /sign-in link/);
  await page.goto(linkIn(mail, `${portcullis.url}/verify_email`));
  await expect(page).toHaveURL(new RegExp(`^${portcullis.url}/app/mfa\\?step=offer&methods=[^&]*totp`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Protect your account');
  await expect(page.getByRole('button', { name: 'Not now' })).toBeVisible();

  const setup = page.waitForResponse((response) => (response.request().postData() ?? '').includes('totp_mfa_setup'));
  await page.getByRole('list', { name: 'Protect your account' }).getByRole('button', { name: 'Authenticator app' }).click();
  expect((await setup).ok(), 'the enrolment is asked for with the offer cookie').toBe(true);
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('I have saved my recovery codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel(/^Authentication code/).fill(totpCode(secret, new Date()));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
});
