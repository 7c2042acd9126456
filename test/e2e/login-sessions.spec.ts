/**
 * Login UI: a person's own sessions on the Security page (docs/tokens.md#a-users-own-sessions). The same
 * account is signed in from two browsers (two contexts: a desktop Firefox and a phone's Safari, by their
 * User-Agent); the desktop's Security page lists both, marks its own as "This device" and names the other by
 * browser and system; signing the other out ends it at once: the phone's next page load is the sign-in page.
 * A list shown while another browser renewed its session (each page load does) reads itself again when the
 * sign-out finds nothing; "Sign out all other sessions" ends the rest, and this device's own row signs the page out.
 */
import type { Browser, Page } from '@playwright/test';
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { expect, test } from './support/fixtures.ts';
import { STRONG_PASSWORD, signIn, signUpInBrowser } from './support/login-helpers.ts';

const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const TABLET = 'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

async function browserAs(browser: Browser, userAgent: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  return (await browser.newContext({ userAgent, viewport })).newPage();
}

async function signInElsewhere(browser: Browser, url: string, email: string, userAgent: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browserAs(browser, userAgent, viewport);
  await page.goto(`${url}/app`);
  await signIn(page, email, STRONG_PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  return page;
}

test('see where you are signed in, sign another browser out, then all others, then this one', async ({ browser, portcullis }) => {
  // Six browser contexts sign in one after the other on a shared two-core machine.
  test.setTimeout(240_000);
  const email = uniqueEmail('sessions');
  const desktop = await browserAs(browser, DESKTOP);
  await signUpInBrowser(desktop, portcullis.url, email);

  const phone = await signInElsewhere(browser, portcullis.url, email, PHONE, { width: 390, height: 844 });
  // The phone is signed in before the desktop ends its session (a page load renews the session: a new reference).
  await phone.reload();
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText('You are signed in');

  await desktop.getByRole('link', { name: 'Security and sign-in methods' }).click();
  await expect(desktop).toHaveURL(/\/app\/security$/);
  const section = desktop.getByTestId('sessions-section');
  await expect(section.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible();
  const rows = section.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  const mine = rows.filter({ has: desktop.getByTestId('session-this-device') });
  await expect(mine).toHaveCount(1);
  await expect(mine.getByTestId('session-device')).toHaveText('Firefox on Linux');
  await expect(mine).toContainText('127.0.0.1');
  await expect(mine).toContainText(/Signed in this minute · last active this minute/);
  const other = rows.filter({ hasNotText: 'This device' });
  await expect(other.getByTestId('session-device')).toHaveText('Safari on iOS');
  await screenshot(desktop, 'login-security-sessions');

  await other.getByRole('button', { name: 'Sign out Safari on iOS' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('This device');
  await phone.reload();
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText(/^Sign in to /);

  // A list shown while the other browser renewed its session names it by its old reference: the refusal
  // reads the list again, and the second try ends it.
  const tablet = await signInElsewhere(browser, portcullis.url, email, TABLET);
  await desktop.reload();
  await expect(rows).toHaveCount(2);
  await tablet.reload();
  await expect(tablet.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
  await section.getByRole('button', { name: 'Sign out Chrome on Android' }).click();
  await expect(section.getByTestId('form-error')).toContainText('already ended or renewed itself');
  await screenshot(desktop, 'login-security-sessions-renewed');
  await section.getByRole('button', { name: 'Sign out Chrome on Android' }).click();
  await expect(rows).toHaveCount(1);
  await expect(section.getByTestId('form-error')).toHaveCount(0);
  await tablet.reload();
  await expect(tablet.getByRole('heading', { level: 1 })).toHaveText(/^Sign in to /);

  // Two more browsers, then "Sign out all other sessions".
  const phoneAgain = await signInElsewhere(browser, portcullis.url, email, PHONE, { width: 390, height: 844 });
  const tabletAgain = await signInElsewhere(browser, portcullis.url, email, TABLET);
  await desktop.reload();
  await expect(rows).toHaveCount(3);
  await section.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(rows).toHaveCount(1);
  await expect(section.getByRole('button', { name: 'Sign out all other sessions' })).toHaveCount(0);
  for (const ended of [phoneAgain, tabletAgain]) {
    await ended.reload();
    await expect(ended.getByRole('heading', { level: 1 })).toHaveText(/^Sign in to /);
  }
  await screenshot(desktop, 'login-security-sessions-one-left');

  // This device's own row is a sign-out of this page.
  await rows.first().getByRole('button', { name: 'Sign out this device' }).click();
  await expect(desktop.getByRole('heading', { level: 1 })).toHaveText(/^Sign in to /);
  await desktop.goto(`${portcullis.url}/app/security`);
  await expect(desktop.getByRole('heading', { level: 1 })).toHaveText(/^Sign in to /);

  // A phone-width Security page with its sessions does not scroll sideways.
  const small = await signInElsewhere(browser, portcullis.url, email, PHONE, { width: 360, height: 780 });
  await small.goto(`${portcullis.url}/app/security`);
  await expect(small.getByTestId('session-row')).toHaveCount(1);
  const badge = small.getByTestId('session-this-device');
  const cut = await badge.evaluate((element) => [element, ...Array.from(element.querySelectorAll('*'))].some((part) => part.scrollWidth > part.clientWidth));
  expect(cut, '"This device" is not cut off').toBe(false);
  const overflow = await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
  await screenshot(small, 'login-security-sessions-phone');
});
