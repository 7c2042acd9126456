/**
 * Social sign-in buttons (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints): a provider switched
 * on with --<provider>-client-id gets a button on the sign-in and sign-up screens, the others none; the
 * button starts /oauth_login/<provider> carrying the application's redirect_uri and state. The upstream
 * itself is not reached here (a dummy client id; test/social covers the exchange).
 */
import { test as base, expect, portcullisFixture, screenshot, type Portcullis } from './support/fixtures.ts';

const test = base.extend<object, { portcullis: Portcullis }>({
  portcullis: [
    portcullisFixture([
      '--github-client-id', 'e2e-dummy-github', '--github-client-secret', 'e2e-dummy-secret',
      '--google-client-id', 'e2e-dummy-google', '--google-client-secret', 'e2e-dummy-secret',
    ]),
    { scope: 'worker', timeout: 60_000 },
  ],
});

test('enabled providers get a button on sign-in and sign-up, and it starts /oauth_login with the round trip', async ({ page, portcullis }) => {
  await page.goto(`${portcullis.app.origin}/`);
  await page.locator('#sign-in').click();
  const state = portcullis.app.states.at(-1)!;
  const buttons = page.getByTestId('social-sign-in').getByRole('link');
  await expect(buttons).toHaveText(['Continue with Google', 'Continue with GitHub']);
  await screenshot(page, 'login-social');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'login-social-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByTestId('social-sign-in').getByRole('link')).toHaveText(['Continue with Google', 'Continue with GitHub']);

  const started = page.waitForRequest((request) => new URL(request.url()).pathname === '/oauth_login/github');
  await page.getByRole('link', { name: 'Continue with GitHub' }).click();
  const url = new URL((await started).url());
  expect(url.origin).toBe(portcullis.url);
  expect(url.searchParams.get('redirect_uri')).toBe(`${portcullis.app.origin}/callback`);
  expect(url.searchParams.get('state')).toBe(state);
});

test('without a round trip the button returns to the login page with a fresh state', async ({ page, portcullis }) => {
  await page.goto(`${portcullis.url}/app`);
  const href = await page.getByRole('link', { name: 'Continue with Google' }).getAttribute('href');
  const url = new URL(href!, portcullis.url);
  expect(url.pathname).toBe('/oauth_login/google');
  expect(url.searchParams.get('redirect_uri')).toBe(`${portcullis.url}/app`);
  expect(url.searchParams.get('state')).toMatch(/^[0-9a-f]{32}$/);
  await expect(page.getByRole('link', { name: /Continue with (Microsoft|Apple|Facebook)/ })).toHaveCount(0);
});
