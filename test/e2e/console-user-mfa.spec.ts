/**
 * Console: a user's second factors and the administrator's reset (the User of docs/api-overview.md#resources-and-fields enrolled_mfa_methods,
 * mfa_locked_at; `_update_user` reset_mfa; docs/api-overview.md#states-and-transitions: an account locked by lock_mfa needs an
 * admin). The user enrols an authenticator app over the API and reports it lost (lock_mfa on a password
 * sign-in's challenge, confirmed with the code mailed to the address an administrator vouched for); the user
 * page shows the app and the lock; Reset MFA asks first, then clears both, and the user's next password
 * sign-in gets a session again.
 */
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { adminCall, graphqlCall, signUpUser, test, expect, USER_PASSWORD, type ConsoleServer } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';
import { totpCode } from '../../server/modules/mfa/totp.ts';

/** A password login over GraphQL: its answer's access token and the mfa cookie when the gate answered. */
async function passwordLogin(server: ConsoleServer, email: string): Promise<{ accessToken?: string; mfaCookie?: string; error?: string }> {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ query: 'mutation($p: LoginRequest!) { login(params: $p) { access_token should_show_totp_screen } }', variables: { p: { email, password: USER_PASSWORD } } }),
  });
  const answer = (await response.json()) as { data?: { login: { access_token?: string } }; errors?: { message: string }[] };
  const mfaCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith('mfa='))?.split(';')[0];
  return { accessToken: answer.data?.login.access_token ?? undefined, mfaCookie, error: answer.errors?.[0]?.message };
}

test('the user page shows the second factor and the lock, and Reset MFA clears them', async ({ page, consoleServer }) => {
  const email = uniqueEmail('mfa-reset');
  const person = await signUpUser(consoleServer, email);
  const bearer = { authorization: `Bearer ${person.accessToken}` };
  const setup = await graphqlCall(consoleServer, 'mutation { totp_mfa_setup(params: {}) { authenticator_secret } }', {}, bearer);
  const secret = setup.data.totp_mfa_setup.authenticator_secret as string;
  const enrolled = await graphqlCall(consoleServer, 'mutation($p: VerifyOTPRequest!) { verify_otp(params: $p) { message } }', { p: { otp: totpCode(secret, new Date()), is_totp: true } }, bearer);
  expect(enrolled.errors).toBeUndefined();

  // "I lost my authenticator" from the challenge of a password sign-in, confirmed with the code mailed to a
  // proven address (an administrator's email_verified makes the signup's address one).
  await adminCall(consoleServer, 'mutation($p: UpdateUserRequest!) { _update_user(params: $p) { id } }', { p: { id: person.id, email_verified: true } });
  const challenged = await passwordLogin(consoleServer, email);
  expect(challenged.accessToken).toBeUndefined();
  expect(challenged.mfaCookie).toBeTruthy();
  const lockMfa = 'mutation($p: LockMfaRequest!) { lock_mfa(params: $p) { message } }';
  const sent = await graphqlCall(consoleServer, lockMfa, { p: {} }, { cookie: challenged.mfaCookie! });
  expect(sent.errors).toBeUndefined();
  const mail = await consoleServer.mailTo!(email, /verification code/i);
  const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1];
  const locked = await graphqlCall(consoleServer, lockMfa, { p: { otp: code } }, { cookie: challenged.mfaCookie! });
  expect(locked.errors).toBeUndefined();
  expect((await passwordLogin(consoleServer, email)).error).toMatch(/locked/);

  await signInToConsole(page, consoleServer);
  await page.goto(`${consoleServer.url}/dashboard/users/${person.id}`);
  const card = page.getByTestId('user-mfa');
  await expect(card.getByText('Authenticator app')).toBeVisible();
  await expect(card.getByText('Locked', { exact: true })).toBeVisible();
  // The user's own "ask for a second factor" switch shows only without a factor: with one it decides nothing.
  await expect(card.getByText(/Asks for a second factor/)).toHaveCount(0);
  await expect(page.getByText('Multi-factor authentication', { exact: true }), 'the card\'s title only, no Profile field beside it').toHaveCount(1);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'console-user-mfa');

  await card.getByRole('button', { name: 'Reset MFA' }).click();
  await page.getByRole('dialog', { name: 'Reset multi-factor authentication?' }).getByRole('button', { name: 'Reset MFA' }).click();
  await expect(page.getByText('MFA was reset')).toBeVisible();
  await expect(card.getByText('None set up')).toBeVisible();
  await expect(card.getByText('Asks for a second factor: Off')).toBeVisible();
  await expect(card.getByText('Locked', { exact: true })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Reset MFA' })).toBeDisabled();

  const after = await passwordLogin(consoleServer, email);
  expect(after.accessToken, 'signs in with the password alone after the reset').toBeTruthy();
});
