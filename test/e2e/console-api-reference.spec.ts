/**
 * The console's API reference (/dashboard/api-reference), next to the playground in the navigation: the
 * executable serves its own OpenAPI document (GET /openapi.json, byte for byte the committed
 * openapi/portcullis.v1.json) and the page renders it under the console's strict CSP, with no CDN. An admin
 * finds an operation by search, opens it and reads its credentials, request and answer fields and its
 * GraphQL and gRPC names; the overview states the Origin rule and the error statuses; a link opens one
 * operation; the page fits a 375 px screen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { screenshot } from './support/fixtures.ts';
import { test, expect } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

const COMMITTED = readFileSync(join(import.meta.dirname, '..', '..', 'openapi', 'portcullis.v1.json'), 'utf8');

test('an admin finds an operation in the API reference and reads how to call it', async ({ page, consoleServer }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const served = await page.request.get(`${consoleServer.url}/openapi.json`);
  expect(served.status()).toBe(200);
  expect(await served.text()).toBe(COMMITTED);

  await signInToConsole(page, consoleServer);
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  await expect(nav.getByRole('link', { name: 'Playground' })).toBeVisible();
  await nav.getByRole('link', { name: 'API reference' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'accounts', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'OpenAPI document' })).toHaveAttribute('href', '/openapi.json');

  await page.getByRole('searchbox', { name: 'Find an operation' }).fill('login');
  await expect(page).toHaveURL(/[?]q=login/);
  const login = page.getByRole('button', { name: /^POST \/v1\/login Signs in with email/ });
  await expect(login).toBeVisible();
  await expect(page.getByRole('button', { name: /\/v1\/admin\/users/ })).toHaveCount(0);
  await login.click();
  const request = page.getByRole('table', { name: 'Request body of login' });
  await expect(request.getByRole('row', { name: /password/ }).first()).toContainText('required');
  await expect(request.getByRole('row', { name: /^email/ })).toContainText('optional');
  const answer = page.getByRole('table', { name: 'Answer (200) of login' });
  await expect(answer.getByRole('row', { name: /^access_token/ })).toContainText('string');
  await expect(answer.getByRole('row', { name: /^user\.email / })).toBeVisible();
  await expect(page.getByText('None: a public operation')).toBeVisible();
  await expect(page.getByText('mutation login', { exact: true })).toBeVisible();
  await expect(page.getByText('PublicService.Login', { exact: true })).toBeVisible();
  await screenshot(page, 'console-api-reference');

  await page.getByRole('searchbox', { name: 'Find an operation' }).fill('admin users');
  const users = page.getByRole('button', { name: /^POST \/v1\/admin\/users Lists users/ });
  await users.click();
  await expect(page.getByText('x-service-admin-secret header', { exact: true })).toBeVisible();
  await expect(page.getByText('service-admin cookie', { exact: true })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Find an operation' }).fill('no-such-operation');
  await expect(page.getByText('No operation matches “no-such-operation”.')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Find an operation' }).fill('');
  await page.getByRole('button', { name: /^Calling the API/ }).click();
  await expect(page.getByRole('heading', { name: 'The Origin rule (CSRF)' })).toBeVisible();
  await expect(page.getByRole('row', { name: /429 resource_exhausted/ })).toBeVisible();

  // A link to one operation opens it.
  await page.goto(`${consoleServer.url}/dashboard/api-reference#op-fga_read_model`);
  await expect(page.getByRole('table', { name: 'Answer (200) of fga_read_model' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a link opens one operation of the API reference, which fits a phone screen', async ({ page, consoleServer }) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await signInToConsole(page, consoleServer);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${consoleServer.url}/dashboard/api-reference?q=login#op-login`);
  await expect(page.getByRole('table', { name: 'Request body of login' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Find an operation' })).toHaveValue('login');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, 'console-api-reference-phone');
  expect(errors).toEqual([]);
});
