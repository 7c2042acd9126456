/**
 * Admin sign-in for the FGA journeys: the `_admin_login` mutation posted through the page's own request
 * context, so the admin cookie (HttpOnly, set by the server) lands in the browser context exactly as the
 * console's sign-in form would leave it. The Origin header meets the server's CSRF rule (specification part 5).
 */
import { expect, type Page } from '@playwright/test';
import type { Portcullis } from './fixtures.ts';

export async function signInAsAdmin(page: Page, portcullis: Portcullis): Promise<void> {
  const response = await page.request.post(`${portcullis.url}/graphql`, {
    headers: { origin: portcullis.url, 'content-type': 'application/json' },
    data: {
      query: 'mutation SignIn($secret: String!) { _admin_login(params: { admin_secret: $secret }) { message } }',
      variables: { secret: portcullis.adminSecret },
    },
  });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { errors?: unknown[] };
  expect(body.errors).toBeUndefined();
}

/** Console errors of the page (CSP violations among them), gathered from now on. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Replaces the whole text of the CodeMirror editor on the page. */
export async function replaceEditorText(page: Page, text: string): Promise<void> {
  const editor = page.locator('.cm-content');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}
