/**
 * Login UI: "Your data" on the Security page (docs/privacy.md#what-is-exported). A person who just signed up
 * presses "Download my data": the browser saves a .json file named by the server, which parses and holds
 * their profile and sessions and no secret (their password, their session's token); the page says where it
 * was saved.
 */
import { readFileSync } from 'node:fs';
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { expect, test } from './support/fixtures.ts';
import { STRONG_PASSWORD, signUpInBrowser } from './support/login-helpers.ts';

test('download my data saves a JSON copy without secrets', async ({ page, portcullis }) => {
  const email = uniqueEmail('your-data');
  await signUpInBrowser(page, portcullis.url, email);

  await page.getByRole('link', { name: 'Security and sign-in methods' }).click();
  await expect(page).toHaveURL(/\/app\/security$/);
  const section = page.getByTestId('your-data-section');
  await expect(section.getByRole('heading', { name: 'Your data' })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^portcullis-data-\d{4}-\d{2}-\d{2}\.json$/);
  const text = readFileSync((await download.path())!, 'utf8');
  const data = JSON.parse(text);
  expect(data.format).toBe('portcullis.personal-data/v1');
  expect(data.profile.email).toBe(email);
  expect(data.sessions.items.length).toBeGreaterThan(0);
  expect(text).not.toContain(STRONG_PASSWORD);
  const cookies = await page.context().cookies();
  for (const cookie of cookies.filter((c) => c.value.length > 16)) expect(text).not.toContain(cookie.value);
  await expect(section.getByTestId('your-data-saved')).toHaveText(`Your data was saved as ${download.suggestedFilename()}.`);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'login-security-your-data');
});
