/**
 * The device authorization grant (RFC 8628) end to end: openid-client 6 plays the device
 * (initiateDeviceAuthorization, then pollDeviceAuthorizationGrant polling the token endpoint), and a person in
 * Chromium opens verification_uri_complete, signs in through the normal login, which returns to the device
 * page with the code filled in, sees the application and its scopes, and allows or denies. Allowing ends
 * the device's polling with tokens naming the person; denying with access_denied. A wrong code is refused
 * with no buttons to approve anything.
 */
import * as oidc from 'openid-client';
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, createVerifiedAccount, signIn } from './support/login-helpers.ts';
import { expect, registerClient, test } from './support/oauth-fixtures.ts';
import type { Portcullis } from './support/fixtures.ts';

const DEVICE_NAME = 'Living Room TV';

/** A registered client with the device grant switched on, as openid-client's configuration from discovery. */
async function deviceClient(portcullis: Portcullis): Promise<oidc.Configuration> {
  const { clientId, clientSecret } = await registerClient(portcullis, {
    name: DEVICE_NAME, redirect_uris: [], consent_required: false, allowed_scopes: ['openid', 'email', 'profile'],
  });
  const enabled = await fetch(`${portcullis.url}/v1/admin/set_client_device_grant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: portcullis.url, 'x-service-admin-secret': portcullis.adminSecret },
    body: JSON.stringify({ client_id: clientId, enabled: true }),
  });
  expect(enabled.status).toBe(200);
  return oidc.discovery(new URL(portcullis.url), clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
    execute: [oidc.allowInsecureRequests],
  });
}

test('the device shows a code, the person signs in and allows it, and the device receives tokens naming them', async ({ page, portcullis }) => {
  const email = uniqueEmail('device-allow');
  await createVerifiedAccount(portcullis, email);
  const config = await deviceClient(portcullis);
  expect(config.serverMetadata().device_authorization_endpoint).toBe(`${portcullis.url}/oauth/device_authorization`);
  expect(config.serverMetadata().grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:device_code');

  const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid email' });
  expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  const polling = oidc.pollDeviceAuthorizationGrant(config, started);

  // Signed out: the page asks to sign in first, and the normal login brings the person back with the code.
  await page.goto(started.verification_uri_complete!);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in on a device');
  await page.getByTestId('device-sign-in').click();
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(`${portcullis.url}/app/device?user_code=${started.user_code}`);
  await expect(page.getByLabel(/^Code/)).toHaveValue(started.user_code);
  await screenshot(page, 'device-code');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Allow ${DEVICE_NAME} on your device?`);
  // The code is shown with a non-breaking hyphen: it never wraps in two.
  await expect(page.getByText(`Check that your device shows the code ${started.user_code.replace('-', '\u2011')}.`)).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByTestId('device-scopes').getByRole('listitem')).toHaveText(['Know who you are when you sign in', 'See your email address']);
  await screenshot(page, 'device-approval');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'device-approval-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByTestId('device-done')).toContainText('return to your device');
  const tokens = await polling;
  expect(tokens.token_type.toLowerCase()).toBe('bearer');
  const claims = tokens.claims()!;
  expect(claims.email).toBe(email);
  expect(claims.aud).toBe(config.clientMetadata().client_id);
  const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  expect(info.email).toBe(email);
});

test('deny ends the device polling with access_denied; a wrong code offers nothing to allow', async ({ page, portcullis }) => {
  const email = uniqueEmail('device-deny');
  await createVerifiedAccount(portcullis, email);
  const config = await deviceClient(portcullis);
  const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile' });
  const polling = oidc.pollDeviceAuthorizationGrant(config, started).then(
    () => 'tokens',
    (err: unknown) => (err instanceof oidc.ResponseBodyError ? err.error : String(err)),
  );

  await page.goto(`${portcullis.url}/app`);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId('signed-in')).toBeVisible();
  await page.goto(`${portcullis.url}/app/device`);
  await page.getByLabel(/^Code/).fill('BBBB-BBBB');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('form-error')).toContainText('wrong, expired or already used');
  await expect(page.getByRole('button', { name: 'Allow' })).toHaveCount(0);

  // Typed by hand, in lower case without the dash: the same code.
  await page.getByLabel(/^Code/).fill(started.user_code.replace('-', '').toLowerCase());
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('device-request')).toBeVisible();
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('device-done')).toContainText('not signed in');
  expect(await polling).toBe('access_denied');
});
