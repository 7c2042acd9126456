/**
 * Login UI: the redirect_uri / state round trip. An application on another origin sends its user to
 * /app?redirect_uri=<its callback>&state=S; after sign-in the browser lands on the callback with the same
 * state and no token in the URL, and the application reads the session with the cookie. A redirect_uri
 * the server does not allow is refused before any page script runs.
 */
import { linkIn, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, createVerifiedAccount, signIn } from './support/login-helpers.ts';
import { expect, test } from './support/login-server.ts';

test('the relying application gets its user back signed in, with its state', async ({ page, portcullis }) => {
  const email = uniqueEmail('roundtrip');
  await createVerifiedAccount(portcullis, email);

  await page.goto(`${portcullis.app.origin}/`);
  await page.locator('#sign-in').click();
  await expect(page).toHaveURL(new RegExp(`^${portcullis.url}/app\\?redirect_uri=`));
  await expect(page.getByTestId('return-notice')).toContainText(new URL(portcullis.app.origin).host);
  const state = portcullis.app.states.at(-1)!;

  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.locator('#who')).toHaveText(email);
  const landed = new URL(page.url());
  expect(landed.origin).toBe(portcullis.app.origin);
  expect(landed.pathname).toBe('/callback');
  expect(landed.searchParams.get('state')).toBe(state);
  expect([...landed.searchParams.keys()]).toEqual(['state']);
  await expect(page.locator('#state')).toHaveText('ok');

  // Signed in already: the next "Sign in" from the application comes straight back, with the new state.
  await page.goto(`${portcullis.app.origin}/`);
  await page.locator('#sign-in').click();
  await expect(page.locator('#who')).toHaveText(email);
  expect(new URL(page.url()).searchParams.get('state')).toBe(portcullis.app.states.at(-1));
});

test('an emailed sign-in link brings the state back to the application too', async ({ page, portcullis }) => {
  const email = uniqueEmail('roundtrip-magic');
  await createVerifiedAccount(portcullis, email);
  await page.goto(`${portcullis.app.origin}/`);
  await page.locator('#sign-in').click();
  const state = portcullis.app.states.at(-1)!;
  await page.getByRole('link', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByTestId('magic-link-sent')).toBeVisible();

  const mail = await portcullis.mailTo(email, /sign-in link/);
  await page.goto(linkIn(mail, `${portcullis.url}/verify_email`));
  await expect(page.locator('#who')).toHaveText(email);
  expect(new URL(page.url()).searchParams.get('state')).toBe(state);
});

test('a redirect_uri the server does not allow is refused with 400 and no redirect', async ({ page, portcullis }) => {
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => navigations.push(frame.url()));
  const response = await page.goto(`${portcullis.url}/app?redirect_uri=${encodeURIComponent('https://evil.example/callback')}&state=x`);
  expect(response?.status()).toBe(400);
  expect(response?.headers().location).toBeUndefined();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This sign-in link cannot be used');
  await page.waitForTimeout(300);
  expect(navigations.every((url) => url.startsWith(portcullis.url))).toBe(true);

  // Every screen of the login UI is guarded, not only its front page.
  const signup = await page.goto(`${portcullis.url}/app/signup?redirect_uri=${encodeURIComponent('javascript:alert(1)')}`);
  expect(signup?.status()).toBe(400);
});
