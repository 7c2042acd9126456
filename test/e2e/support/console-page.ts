/** Steps the console journeys share: signing in through the form, and finding a user by search. */
import { expect, type Page } from '@playwright/test';
import type { ConsoleServer } from './console-fixtures.ts';

export async function signInToConsole(page: Page, server: ConsoleServer): Promise<void> {
  await page.goto(`${server.url}/dashboard/`);
  await page.getByLabel('Admin secret').fill(server.adminSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Console sections' })).toBeVisible();
}

/** Types into the users search and waits for the table to show exactly that user's row. */
export async function searchUsers(page: Page, query: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(query);
  await expect(page).toHaveURL(/[?]q=/);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2); // header + the one match
}
