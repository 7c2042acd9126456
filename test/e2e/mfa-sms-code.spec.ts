/**
 * Login UI: codes by text message as the second factor
 * (docs/api-overview.md#states-and-transitions, "MFA enrollment created, unverified": sms_otp_mfa_setup texts a
 * code, verify_otp confirms it; docs/operations.md#verify_otp / resend_otp with
 * the mfa cookie and `mfa_method`). An account made with a phone number sets the factor up from its
 * Security page with the texted code; its next password sign-in stops at the text-code screen (the code
 * leaves with the sign-in's answer when codes are its only factor), a wrong code is refused, and the texted
 * one signs in. Codes are read from the Twilio-style SMS sink of the fixture.
 */
import { expect, screenshot, test } from './support/fixtures.ts';
import { STRONG_PASSWORD, codeTextedTo, signIn, uniquePhone } from './support/login-helpers.ts';
import { signOut, signUpInBrowser } from './support/mfa-helpers.ts';

test('set up text message codes, then pass the text-code step after a password', async ({ page, portcullis }) => {
  const phone = uniquePhone();
  await signUpInBrowser(page, portcullis, phone);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');

  await page.getByRole('link', { name: 'Security and sign-in methods' }).click();
  await expect(page.getByTestId('security-sms_otp')).toContainText('Not set up');
  await page.getByRole('button', { name: 'Set up text codes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set up text message codes' });
  await expect(dialog).toContainText(phone);
  let texts = portcullis.sms.requests.length;
  await dialog.getByRole('button', { name: 'Text me a code' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: /new code in \d+ s/ })).toBeVisible();
  await dialog.getByLabel(/^Verification code/).fill(await codeTextedTo(portcullis, phone, texts));
  await dialog.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Text message code added' })).toBeVisible();
  await expect(page.getByTestId('security-sms_otp')).toContainText('On');

  await page.getByRole('link', { name: 'Back to your account' }).click();
  await signOut(page);
  texts = portcullis.sms.requests.length;
  await signIn(page, phone, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/app\/mfa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your phone');
  await expect(page.getByTestId('resend-cool-down')).toContainText(/You can ask for a new code in \d+ s/);
  const code = await codeTextedTo(portcullis, phone, texts);
  await page.getByLabel(/^Verification code/).fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByTestId('form-error')).toContainText('Wrong or expired code');
  await screenshot(page, 'login-mfa-sms');

  const verify = page.waitForRequest((request) => (request.postData() ?? '').includes('VerifyOtp'));
  await page.getByLabel(/^Verification code/).fill(code);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  expect((await verify).postDataJSON().variables.params.mfa_method, 'the screen names its factor').toBe('sms_otp');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-phone')).toContainText(phone);
});
