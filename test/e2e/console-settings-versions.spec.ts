/**
 * The console's settings page shows Portcullis's own release and the API version it is compatible with
 * apart (admin meta server_version and version; server/version.ts says why they differ).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';
import { screenshot } from './support/fixtures.ts';

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

test('settings show the Portcullis version and the compatible API version', async ({ page, consoleServer }) => {
  await signInToConsole(page, consoleServer);
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByText('Portcullis version')).toBeVisible();
  await expect(page.getByTestId('server-version')).toHaveText(PACKAGE_VERSION);
  await expect(page.getByText('Compatible API version')).toBeVisible();
  await expect(page.getByTestId('api-version')).toHaveText(/^2\.\d+\.\d+$/);
  await screenshot(page, 'console-settings-versions');
});
