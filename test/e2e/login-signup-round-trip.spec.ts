/**
 * Login UI on the shared fixture's server, where email verification is off (its default): a person sent by
 * the relying application creates an account and is signed in at once, landing back on the application's
 * callback with its state.
 */
import { expect, test, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD } from './support/login-helpers.ts';

test('sign up from the relying application and land back on it signed in', async ({ page, portcullis }) => {
  const email = uniqueEmail('signup-app');
  await page.goto(`${portcullis.app.origin}/`);
  await page.locator('#sign-in').click();
  const state = portcullis.app.states.at(-1)!;
  await page.getByRole('link', { name: 'Create an account' }).click();
  // The round trip rides along in the address, so a reload here still returns to the application.
  await expect(page).toHaveURL(/\/app\/signup\?redirect_uri=/);
  await page.reload();
  await page.getByLabel('Email or phone number').fill(email);
  await page.getByLabel(/^Password/).fill(STRONG_PASSWORD);
  await page.getByLabel('Confirm password').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page.locator('#who')).toHaveText(email);
  const landed = new URL(page.url());
  expect(landed.origin).toBe(portcullis.app.origin);
  expect(landed.searchParams.get('state')).toBe(state);
  expect(landed.search).not.toMatch(/token/);
});
