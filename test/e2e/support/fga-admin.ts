/**
 * Admin sign-in for the FGA journeys: the `_admin_login` mutation posted through the page's own request
 * context, so the admin cookie (HttpOnly, set by the server) lands in the browser context exactly as the
 * console's sign-in form would leave it. The Origin header meets the server's CSRF rule (docs/api-overview.md#authentication).
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

/** One GraphQL call with the admin cookie of the page's context (after signInAsAdmin); fails on any error. */
export async function adminGraphql<T>(page: Page, portcullis: Portcullis, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await page.request.post(`${portcullis.url}/graphql`, {
    headers: { origin: portcullis.url, 'content-type': 'application/json' },
    data: { query, variables },
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

/** Saves `dsl` as the current model and writes `tuples`, the state a tab's journey starts from. */
export async function seedFga(page: Page, portcullis: Portcullis, dsl: string, tuples: { user: string; relation: string; object: string }[]): Promise<void> {
  await adminGraphql(page, portcullis, 'mutation($dsl: String!) { _fga_write_model(params: { dsl: $dsl }) { id } }', { dsl });
  if (tuples.length > 0) {
    await adminGraphql(page, portcullis, 'mutation($tuples: [TupleInput!]!) { _fga_write_tuples(params: { tuples: $tuples }) { message } }', { tuples });
  }
}

/** Ids no other test uses, so journeys sharing one server do not see each other's tuples. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
