/**
 * Login UI, the sign-in form itself: the server's message on a wrong password, sign-in with the keyboard
 * alone (Tab, typing, Enter; WCAG 2.1.1), and a phone-sized viewport without sideways scrolling (WCAG
 * 1.4.10). No flash of the sign-in form for a person who is already signed in.
 */
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { STRONG_PASSWORD, createVerifiedAccount, expectNoHorizontalScroll, signIn } from './support/login-helpers.ts';
import { expect, test } from './support/login-server.ts';

test('a wrong password shows the server message and keeps the form usable', async ({ page, portcullis }) => {
  const email = uniqueEmail('wrong');
  await createVerifiedAccount(portcullis, email);
  // Nothing the page does breaks its Content-Security-Policy or throws.
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${portcullis.url}/app`);
  await expect(page).toHaveTitle('Sign in to Acme Cloud · Acme Cloud');
  await screenshot(page, 'login');

  await signIn(page, email, 'Not-The-Password-1');
  const error = page.getByRole('alert');
  await expect(error).toContainText('Sign-in failed');
  await expect(error).toContainText('Invalid credentials.');
  await expect(page.getByLabel(/^Password/)).toBeEditable();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).not.toHaveAttribute('data-loading');
  await screenshot(page, 'login-error');

  // Empty fields are caught before any call, with words next to the field.
  await page.goto(`${portcullis.url}/app`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('This field is required.')).toHaveCount(2);
  expect(problems).toEqual([]);
});

test('keyboard only: Tab to each field, Enter signs in', async ({ page, portcullis }) => {
  const email = uniqueEmail('keyboard');
  await createVerifiedAccount(portcullis, email);
  await page.goto(`${portcullis.url}/app`);
  const identifier = page.getByLabel('Email or phone number');
  // The first field has focus on arrival; otherwise Tab reaches it before anything else in the form.
  await expect(identifier).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(/^Password/)).toBeFocused();
  await page.keyboard.type(STRONG_PASSWORD);
  // The focused field looks different from the one it left (visible focus, WCAG 2.4.7).
  const border = (element: Element) => getComputedStyle(element).borderColor;
  expect(await page.getByLabel(/^Password/).evaluate(border)).not.toBe(await identifier.evaluate(border));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
  // Sign out with the keyboard too.
  await page.getByRole('button', { name: 'Sign out' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Acme Cloud');
});

test('at 375 x 700 the sign-in form fits without horizontal scrolling', async ({ page, portcullis }) => {
  await page.setViewportSize({ width: 375, height: 700 });
  await page.goto(`${portcullis.url}/app`);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeInViewport();
  await expectNoHorizontalScroll(page);
  const form = await page.getByRole('form', { name: 'Sign in' }).boundingBox();
  expect(form!.x).toBeGreaterThanOrEqual(0);
  expect(form!.x + form!.width).toBeLessThanOrEqual(375);
  await screenshot(page, 'login-mobile');
  for (const path of ['/app/signup', '/app/forgot-password', '/app/magic-link']) {
    await page.goto(`${portcullis.url}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoHorizontalScroll(page);
  }
});

test('a signed-in person never sees the sign-in form flash before the signed-in page', async ({ page, portcullis }) => {
  const email = uniqueEmail('noflash');
  await createVerifiedAccount(portcullis, email);
  await page.goto(`${portcullis.url}/app`);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId('signed-in')).toBeVisible();

  // Hold the session answer back; until it comes, only the loader may show.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/graphql', async (route) => {
    if (route.request().postData()?.includes('query Session')) await held;
    await route.continue();
  });
  await page.reload();
  await expect(page.getByRole('status')).toContainText('Loading');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);
  release();
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
});
