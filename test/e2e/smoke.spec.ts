import { test, expect, screenshot } from './support/fixtures.ts';

// The embedded frontends are served by the executable with their security headers.
test('the executable serves the login UI and the console with a strict CSP', async ({ page, portcullis }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const response = await page.goto(`${portcullis.url}/app`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Acme Cloud');
  const dashboard = await page.goto(`${portcullis.url}/`);
  expect(dashboard?.url()).toBe(`${portcullis.url}/dashboard/`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Acme Cloud');
  await screenshot(page, 'smoke-console');
  expect(errors).toEqual([]);
});
