/**
 * Login UI: the picker of second factors (the AuthResponse of docs/api-overview.md#resources-and-fields: several should_show_* flags at once).
 * A user with both email and text message codes signs in with their email and password; the page asks
 * which to use, the person picks the text message, the page asks for a texted code (resend_otp with
 * `mfa_method: sms_otp`, since the sign-in itself sent the email code) and the texted code signs in
 * (verify_otp naming the same factor).
 */
import type { ReceivedEmail } from '../support/smtp-sink.ts';
import { expect, screenshot, test, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, codeTextedTo, signIn, uniquePhone } from './support/login-helpers.ts';
import { graphqlAsPage, newCodeMailedTo, signOut, signUpInBrowser } from './support/mfa-helpers.ts';

/** The server's pause between two codes of one factor (accounts/mfa-codes.ts), plus a second of margin. */
const RESEND_PAUSE_MS = 31_000;

test('a user with email and text codes signs in by email, picks the text message and passes with it', async ({ page, portcullis }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('picker');
  const phone = uniquePhone();
  const seen = new Set<ReceivedEmail>();
  await signUpInBrowser(page, portcullis, email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await graphqlAsPage(page, portcullis, 'mutation($p: UpdateProfileRequest!) { update_profile(params: $p) { message } }', { p: { phone_number: phone, old_password: STRONG_PASSWORD } });

  await page.goto(`${portcullis.url}/app/security`);
  await page.getByRole('button', { name: 'Set up text codes' }).click();
  let dialog = page.getByRole('dialog', { name: 'Set up text message codes' });
  let texts = portcullis.sms.requests.length;
  await dialog.getByRole('button', { name: 'Text me a code' }).click();
  const textedAt = Date.now();
  await dialog.getByLabel(/^Verification code/).fill(await codeTextedTo(portcullis, phone, texts));
  await dialog.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(page.getByTestId('security-sms_otp')).toContainText('On');

  await page.getByRole('button', { name: 'Set up email codes' }).click();
  dialog = page.getByRole('dialog', { name: 'Set up email codes' });
  await dialog.getByRole('button', { name: 'Email me a code' }).click();
  await dialog.getByLabel(/^Verification code/).fill(await newCodeMailedTo(portcullis, email, seen));
  await dialog.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(page.getByTestId('security-email_otp')).toContainText('On');

  await page.getByRole('link', { name: 'Back to your account' }).click();
  await signOut(page);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/app\/mfa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify it is you');
  const choices = page.getByRole('list', { name: 'Verify it is you' });
  await expect(choices.getByRole('button')).toHaveText([/Email code/, /Text message code/]);
  await screenshot(page, 'login-mfa-picker');

  // The enrolment's texted code is still within the server's resend pause of that factor: wait it out, as
  // a person would see the count-down otherwise.
  await page.waitForTimeout(Math.max(0, textedAt + RESEND_PAUSE_MS - Date.now()));
  texts = portcullis.sms.requests.length;
  const resend = page.waitForRequest((request) => (request.postData() ?? '').includes('ResendOtp'));
  await choices.getByRole('button', { name: 'Text message code' }).click();
  expect((await resend).postDataJSON().variables.params).toMatchObject({ email, mfa_method: 'sms_otp' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your phone');
  await expect(page.getByText('Code sent')).toBeVisible();
  const code = await codeTextedTo(portcullis, phone, texts);
  await page.getByLabel(/^Verification code/).fill(code);
  await screenshot(page, 'login-mfa-picker-sms');
  const verify = page.waitForRequest((request) => (request.postData() ?? '').includes('VerifyOtp'));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  expect((await verify).postDataJSON().variables.params).toMatchObject({ otp: code, mfa_method: 'sms_otp' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
});
