/**
 * The admin journey over email templates (README "Email templates"): the six events, all built-in; edit
 * forgot_password with the server's preview beside it (rendered with sample values, which are HTML-escaped:
 * the organization name "Acme <Ops> & Co" shows as text, never as markup) in a sandboxed frame; a template
 * the server cannot render is refused with its message; save, then restore the built-in one.
 */
import { screenshot } from './support/fixtures.ts';
import { adminCall } from './support/console-fixtures.ts';
import { ORGANIZATION, test, expect } from './support/console-ops-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

/** The preview is rendered by the server on a loaded machine. */
const SLOW = { timeout: 30_000 };

test('admin edits an email template with a live preview, sees a refusal, saves it and restores the built-in one', async ({ page, consoleServer }) => {
  test.setTimeout(120_000);
  await signInToConsole(page, consoleServer);
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Email templates' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Email templates' })).toBeVisible();
  const events = page.getByRole('table', { name: 'Email template events' });
  await expect(events.getByRole('row')).toHaveCount(7); // header + six events
  await expect(events.getByText('Built-in')).toHaveCount(6);
  await screenshot(page, 'console-email-templates');

  await events.getByRole('link', { name: 'forgot_password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'forgot_password' })).toBeVisible();
  const frame = page.getByTitle('Email preview');
  await expect(frame).toHaveAttribute('sandbox', '');
  // The starter template renders: the sample link is in the frame.
  await expect(frame.contentFrame().getByRole('link', { name: 'Choose a new password' })).toBeVisible(SLOW);

  // A custom draft: the sample values arrive escaped, so the organization name is text in the frame.
  await page.getByLabel('Subject').fill('Reset for {{user.given_name}} at {{organization.name}}');
  await page.getByLabel('HTML').fill('<h1 id="custom">Hi {{user.name}}</h1>\n<p>Org: {{organization.name}}</p>\n<p><a href="{{verification_url}}">Reset now</a></p>');
  await expect(page.getByTestId('preview-subject')).toHaveText(`Reset for Jane at ${ORGANIZATION}`, SLOW);
  const preview = frame.contentFrame();
  await expect(preview.getByRole('heading', { name: 'Hi Jane Doe' })).toBeVisible(SLOW);
  await expect(preview.getByText(`Org: ${ORGANIZATION}`)).toBeVisible();
  await expect(preview.locator('ops')).toHaveCount(0);
  expect(await preview.getByRole('link', { name: 'Reset now' }).getAttribute('href')).toContain('sample-token');
  // The server's HTML never enters the console's own document.
  await expect(page.locator('#custom')).toHaveCount(0);
  await screenshot(page, 'console-email-template-preview');

  // A placeholder nobody fills: the preview and the save show the server's refusal.
  await page.getByLabel('HTML').fill('<p>{{user.password}}</p><a href="{{verification_url}}">Reset</a>');
  await expect(page.getByRole('alert').filter({ hasText: 'The server cannot render this draft' })).toContainText('unknown placeholder {{user.password}}', SLOW);
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That did not work' })).toContainText('unknown placeholder {{user.password}}');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'console-email-template-refused');

  // Save a good one: the event now sends the stored template.
  const html = '<h1>Hi {{user.name}}</h1><p>Org: {{organization.name}}</p><p><a href="{{verification_url}}">Reset now</a></p>';
  await page.getByLabel('HTML').fill(html);
  await expect(preview.getByText(`Org: ${ORGANIZATION}`)).toBeVisible(SLOW);
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByText('Template saved.')).toBeVisible();
  await expect(page.getByText('Custom', { exact: true })).toBeVisible();
  const stored = await adminCall(consoleServer, 'query { _email_templates(params: {}) { email_templates { event_name subject template } } }');
  expect(stored._email_templates.email_templates).toEqual([
    { event_name: 'forgot_password', subject: 'Reset for {{user.given_name}} at {{organization.name}}', template: html },
  ]);

  // Restore the built-in one after the confirmation.
  await page.getByRole('button', { name: 'Restore the built-in one' }).click();
  await page.getByRole('dialog', { name: 'Restore the built-in template?' }).getByRole('button', { name: 'Delete and restore' }).click();
  await expect(page.getByText('The built-in template is used again.')).toBeVisible();
  await expect(page.getByText('Built-in', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Restore the built-in one' })).toHaveCount(0);
  const after = await adminCall(consoleServer, 'query { _email_templates(params: {}) { email_templates { id } } }');
  expect(after._email_templates.email_templates).toEqual([]);
});
