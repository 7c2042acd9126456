/**
 * The authorization code flow with PKCE in Chromium (RFC 6749 section 4.1, RFC 7636, OpenID Connect Core
 * section 3.1): a relying party on another loopback port (support/oauth-relying-app.ts) sends the browser to
 * /authorize; without a session the login UI asks for the password and resumes the request; for a
 * consent_required client the consent screen names the client and the scopes; Allow ends at the relying
 * party, whose server redeems the code at /oauth/token and verifies the ID token. Deny ends there too, with
 * error=access_denied and the state (RFC 6749 section 4.1.2.1).
 */
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, createVerifiedAccount, signIn } from './support/login-helpers.ts';
import { OAUTH_CLIENT_NAME, expect, test } from './support/oauth-fixtures.ts';

test('sign in, allow, and the relying party redeems the code for an ID token naming the user', async ({ page, portcullis, oauthApp }) => {
  const email = uniqueEmail('oauth-allow');
  await createVerifiedAccount(portcullis, email);

  await page.goto(`${oauthApp.origin}/`);
  await page.locator('#sign-in').click();
  // No session: the login UI, resuming /authorize afterwards, names the application by its registered name
  // and its host, rather than this server's own.
  await expect(page).toHaveURL(new RegExp(`^${portcullis.url}/app\\?redirect_uri=${encodeURIComponent(`${portcullis.url}/authorize?`).replace(/[.?]/g, '\\$&')}`));
  await expect(page.getByTestId('return-notice')).toHaveText(`After signing in you will continue to ${OAUTH_CLIENT_NAME} (${new URL(oauthApp.origin).host}).`);
  // This server has no social provider switched on: no section for them.
  await expect(page.getByTestId('social-sign-in')).toHaveCount(0);
  await screenshot(page, 'oauth-sign-in');
  const state = oauthApp.lastState()!;

  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(new RegExp(`^${portcullis.url}/app/consent\\?request=`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Allow ${OAUTH_CLIENT_NAME} to use your account?`);
  await expect(page.getByText(`you will continue to ${new URL(oauthApp.origin).host}`)).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  const scopes = page.getByTestId('consent-scopes').getByRole('listitem');
  await expect(scopes).toHaveText(['Know who you are when you sign in', 'See your name and profile details', 'See your email address']);
  await screenshot(page, 'oauth-consent');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'oauth-consent-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.locator('#who')).toHaveText(email);
  const landed = new URL(page.url());
  expect(landed.origin + landed.pathname).toBe(oauthApp.redirectUri);
  expect(landed.searchParams.get('state')).toBe(state);
  expect(landed.searchParams.getAll('state')).toHaveLength(1);
  expect(landed.searchParams.get('iss')).toBe(portcullis.url);
  expect(landed.searchParams.has('access_token')).toBe(false);
  const result = oauthApp.results.at(-1)!;
  expect(result.tokenStatus).toBe(200);
  expect(result.tokenAnswer).toMatchObject({ token_type: 'Bearer' });
  expect(result.idToken?.email).toBe(email);

  // The consent is remembered: the next sign-in from the application comes straight back with a new code.
  await page.goto(`${oauthApp.origin}/`);
  await page.locator('#sign-in').click();
  await expect(page.locator('#who')).toHaveText(email);
  expect(new URL(page.url()).searchParams.get('state')).toBe(oauthApp.lastState());

  // The signed-in page lists the application; withdrawing the access makes it ask again.
  await page.goto(`${portcullis.url}/app`);
  const connected = page.getByTestId('connected-app');
  await expect(connected).toHaveCount(1);
  await expect(connected).toContainText(OAUTH_CLIENT_NAME);
  await expect(connected).toContainText('See your email address');
  await screenshot(page, 'signed-in-connected-apps');
  await page.getByRole('button', { name: `Remove access of ${OAUTH_CLIENT_NAME}` }).click();
  await expect(page.getByTestId('connected-apps')).toHaveCount(0);
  await page.goto(`${oauthApp.origin}/`);
  await page.locator('#sign-in').click();
  await expect(page.getByTestId('consent')).toBeVisible();
});

test('deny sends the relying party error=access_denied with its state, and no code', async ({ page, portcullis, oauthApp }) => {
  const email = uniqueEmail('oauth-deny');
  await createVerifiedAccount(portcullis, email);
  await page.goto(`${oauthApp.origin}/`);
  await page.locator('#sign-in').click();
  const state = oauthApp.lastState()!;
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId('consent')).toBeVisible();

  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.locator('#error')).toHaveText('access_denied');
  const landed = new URL(page.url());
  expect(landed.origin + landed.pathname).toBe(oauthApp.redirectUri);
  expect(landed.searchParams.get('state')).toBe(state);
  expect(landed.searchParams.has('code')).toBe(false);
  expect(oauthApp.results.at(-1)?.tokenStatus).toBeUndefined();
});

test('a consent link that is unknown or from another session shows the refusal, with no buttons', async ({ page, portcullis }) => {
  const email = uniqueEmail('oauth-stale');
  await createVerifiedAccount(portcullis, email);
  await page.goto(`${portcullis.url}/app`);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId('signed-in')).toBeVisible();

  await page.goto(`${portcullis.url}/app/consent?request=not-a-request`);
  await expect(page.getByTestId('form-error')).toContainText('not found or expired');
  await expect(page.getByRole('button', { name: 'Allow' })).toHaveCount(0);

  await page.goto(`${portcullis.url}/app/consent`);
  await expect(page.getByTestId('consent-unavailable')).toBeVisible();
});
