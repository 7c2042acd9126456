/** Login UI: sign in with an emailed link (--enable-magic-link-login): request it, open it, signed in. */
import { linkIn, screenshot, uniqueEmail } from './support/fixtures.ts';
import { createVerifiedAccount } from './support/login-helpers.ts';
import { expect, test } from './support/login-server.ts';

test('magic link: ask for it, open the mail, signed in', async ({ page, portcullis }) => {
  const email = uniqueEmail('magic');
  await createVerifiedAccount(portcullis, email);

  await page.goto(`${portcullis.url}/app`);
  await page.getByRole('link', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in with an email link');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
  await expect(page.getByTestId('magic-link-sent')).toContainText(email);
  await screenshot(page, 'login-magic-link-sent');

  const mail = await portcullis.mailTo(email, /sign-in link/);
  const link = linkIn(mail, `${portcullis.url}/verify_email`);
  await page.goto(link);
  await expect(page).toHaveURL(`${portcullis.url}/app`);
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
});
