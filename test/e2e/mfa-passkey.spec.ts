/**
 * Login UI: passkeys (docs/operations.md webauthn_*; docs/api-overview.md#states-and-transitions, the MFA gate). With Chromium's virtual
 * authenticator (support/virtual-authenticator.ts) a new account adds a passkey from its Security page, signs
 * out, signs in with the passkey alone (the usernameless, discoverable-credential ceremony: by the email
 * field's autofill, then by the button), and then, after
 * a password sign-in, passes the second-factor step with the same passkey. Deleting it takes it off the list.
 * The server runs as http://localhost:<port>: an IP address is never a WebAuthn RP ID.
 */
import { test as base, expect, portcullisFixture, screenshot, uniqueEmail, type Portcullis } from './support/fixtures.ts';
import { STRONG_PASSWORD, signIn, signUpInBrowser } from './support/login-helpers.ts';
import { addVirtualAuthenticator } from './support/virtual-authenticator.ts';

const test = base.extend<object, { portcullis: Portcullis }>({
  portcullis: [portcullisFixture([], { hostname: 'localhost' }), { scope: 'worker', timeout: 60_000 }],
});

test('add a passkey, sign in with it alone, and pass the second factor with it after a password', async ({ page, portcullis }) => {
  const authenticator = await addVirtualAuthenticator(page);
  const email = uniqueEmail('passkey');
  await signUpInBrowser(page, portcullis.url, email);

  await page.getByRole('link', { name: 'Security and sign-in methods' }).click();
  await expect(page.getByTestId('security-webauthn')).toContainText('Not set up');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Name (optional)').fill('Test laptop');
  await screenshot(page, 'login-passkey-add');
  await dialog.getByRole('button', { name: 'Create passkey' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey added' })).toBeVisible();
  await expect(page.getByTestId('passkey-list')).toContainText('Test laptop');
  await expect(page.getByTestId('security-webauthn')).toContainText('On');
  expect(await authenticator.credentials()).toHaveLength(1);
  expect((await authenticator.credentials())[0]!.isResidentCredential, 'a discoverable credential (passkey)').toBe(true);
  await screenshot(page, 'login-security-passkey');

  // Autofill (conditional mediation): the login page offers the passkey in the email field's suggestions as
  // it opens. The virtual authenticator answers at once where a person would pick it, so signing out lands
  // back on the signed-in page with no email typed.
  await page.getByRole('link', { name: 'Back to your account' }).click();
  const autofilled = page.waitForResponse((response) => (response.request().postData() ?? '').includes(' webauthn_login_verify('));
  await page.getByRole('button', { name: 'Sign out' }).click();
  expect((await autofilled).ok()).toBe(true);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);

  // In a browser without autofill of passkeys the button starts the same usernameless ceremony.
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
  await page.reload();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Acme Cloud');
  await expect(page.getByLabel(/^Email/)).toHaveAttribute('autocomplete', 'username webauthn');
  await screenshot(page, 'login-with-passkey-button');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);

  // A password sign-in of a user with a passkey stops at the second factor, which the passkey passes.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/app\/mfa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Use your passkey');
  await screenshot(page, 'login-mfa-passkey');
  await page.getByRole('button', { name: 'Use passkey' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');

  // Deleting the passkey asks first, then takes it off the list.
  await page.getByRole('link', { name: 'Security and sign-in methods' }).click();
  await page.getByRole('button', { name: 'Delete passkey Test laptop' }).click();
  await page.getByRole('dialog', { name: 'Delete this passkey?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('passkey-list')).toHaveCount(0);
  await expect(page.getByTestId('security-webauthn')).toContainText('Not set up');
});
