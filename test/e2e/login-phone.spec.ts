/**
 * Login UI with a phone number (--enable-mobile-basic-authentication, on by default, with
 * --enable-phone-verification): sign up with a number, read the code from the SMS sink, verify, signed in.
 * A number that signs in before it is verified is offered a fresh code instead of a dead end.
 */
import { screenshot } from './support/fixtures.ts';
import { STRONG_PASSWORD, codeTextedTo, signIn, uniquePhone } from './support/login-helpers.ts';
import { expect, test } from './support/login-server.ts';

test('sign up with a phone number, verify the texted code, signed in', async ({ page, portcullis }) => {
  const phone = uniquePhone();
  await page.goto(`${portcullis.url}/app/signup`);
  await page.getByLabel('Email or phone number').fill(phone);
  await page.getByLabel(/^Password/).fill(STRONG_PASSWORD);
  await page.getByLabel('Confirm password').fill(STRONG_PASSWORD);
  const textsBefore = portcullis.sms.requests.length;
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your phone number');
  await expect(page).toHaveURL(`${portcullis.url}/app/verify-phone`);
  await expect(page.getByText(phone).first()).toBeVisible();
  const code = await codeTextedTo(portcullis, phone, textsBefore);
  await screenshot(page, 'login-verify-phone');

  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('Verification code').fill(wrong);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('That did not work');

  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByTestId('signed-in-phone')).toHaveText(phone);
  await expect(page.getByTestId('signed-in')).toContainText('Verified');
});

test('signing in with an unverified number offers a new code, which signs in', async ({ page, portcullis }) => {
  const phone = uniquePhone();
  await page.goto(`${portcullis.url}/app/signup`);
  await page.getByLabel('Email or phone number').fill(phone);
  await page.getByLabel(/^Password/).fill(STRONG_PASSWORD);
  await page.getByLabel('Confirm password').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your phone number');
  await codeTextedTo(portcullis, phone); // the signup's text, so that only the resent one counts below

  // Leave without verifying, then try to sign in.
  await page.goto(`${portcullis.url}/app`);
  await signIn(page, phone, STRONG_PASSWORD);
  await expect(page.getByRole('alert')).toContainText('Phone number not verified');
  const textsBefore = portcullis.sms.requests.length;
  await page.getByRole('button', { name: 'Verify your phone number' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your phone number');
  const code = await codeTextedTo(portcullis, phone, textsBefore);
  await page.getByLabel('Verification code').fill(code);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('signed-in-phone')).toHaveText(phone);
});

test('forgot password with a phone number: the texted code resets it', async ({ page, portcullis }) => {
  const phone = uniquePhone();
  const response = await fetch(`${portcullis.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: portcullis.url },
    body: JSON.stringify({
      query: 'mutation($p: SignUpRequest!) { signup(params: $p) { message } }',
      variables: { p: { phone_number: phone, password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD } },
    }),
  });
  expect((await response.json()).errors).toBeUndefined();
  // The signup's own verification text arrives first (sent after the commit), so it is not mistaken below.
  await codeTextedTo(portcullis, phone);

  await page.goto(`${portcullis.url}/app/forgot-password`);
  await page.getByLabel('Email or phone number').fill(phone);
  const textsBefore = portcullis.sms.requests.length;
  await page.getByRole('button', { name: 'Send reset instructions' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
  const code = await codeTextedTo(portcullis, phone, textsBefore);
  await page.getByLabel('Verification code').fill(code);
  await page.getByLabel(/^New password/).fill('Phone-Reset-77');
  await page.getByLabel('Confirm password').fill('Phone-Reset-77');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByTestId('reset-password-done')).toBeVisible();

  await page.getByRole('button', { name: 'Continue to sign in' }).click();
  await signIn(page, phone, 'Phone-Reset-77');
  await expect(page.getByTestId('signed-in-phone')).toHaveText(phone);
});
