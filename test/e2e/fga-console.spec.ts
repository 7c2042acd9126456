import { test, expect, screenshot } from './support/fixtures.ts';
import { collectConsoleErrors, replaceEditorText, signInAsAdmin } from './support/fga-admin.ts';

// A model with a deliberate mistake: `usr` is no type of the model (OpenFGA's validator names it).
const BROKEN_MODEL = `model
  schema 1.1

type user

type document
  relations
    define viewer: [user, usr]
`;

const MODEL = `model
  schema 1.1

type user

type team
  relations
    define member: [user]

type document
  relations
    define owner: [user]
    define editor: [user, team#member] or owner
    define viewer: [user, team#member] or editor
`;

test.describe.configure({ mode: 'serial' });

test('the FGA section edits the model, writes and deletes tuples, and answers checks', async ({ page, portcullis }) => {
  const errors = collectConsoleErrors(page);
  await signInAsAdmin(page, portcullis);
  await page.goto(`${portcullis.url}/dashboard/fga`);
  await expect(page.getByRole('heading', { level: 2, name: 'Authorization model' })).toBeVisible();
  const status = page.getByTestId('dsl-status');

  // The parser's diagnostic shows as the text is typed, before anything is saved.
  await replaceEditorText(page, BROKEN_MODEL);
  await expect(status).toContainText('The parser found 1 problem');
  await expect(status).toContainText('usr');
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();
  // Saving it anyway: the server refuses with its own words.
  await page.getByRole('button', { name: 'Save model' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The server refused the model' });
  await expect(refusal).toContainText('`usr` is not a valid type');
  await expect(page.getByText(/^Version /)).toHaveCount(0);

  await replaceEditorText(page, MODEL);
  await expect(status).toContainText('No problems found by the parser.');
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Model saved' })).toBeVisible();
  await expect(page.getByText(/^Version [0-9A-Z]{26}$/)).toBeVisible();
  await expect(refusal).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'fga-model-editor');

  // Reloading shows the stored model, not the example.
  await page.reload();
  await expect(page.locator('.cm-content')).toContainText('define member: [user]');

  // Unsaved edits are not lost by a click on another tab: the console asks first.
  await replaceEditorText(page, `${MODEL}\ntype folder\n`);
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await page.getByRole('tab', { name: 'Tuples' }).click();
  await leave.getByRole('button', { name: 'Cancel' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard\/fga$/);
  await expect(page.locator('.cm-content')).toContainText('type folder');
  await page.getByRole('tab', { name: 'Tuples' }).click();
  await leave.getByRole('button', { name: 'Discard and leave' }).click();

  // Tuples: write two, see them, filter, delete one after confirming.
  await expect(page).toHaveURL(/\/dashboard\/fga\/tuples$/);
  const writeForm = page.getByRole('region', { name: 'Write a tuple' });
  for (const [user, relation, object] of [['user:anne', 'viewer', 'document:roadmap'], ['user:carl', 'owner', 'document:budget']]) {
    await writeForm.getByLabel('User').fill(user!);
    await writeForm.getByLabel('Relation').fill(relation!);
    await writeForm.getByLabel('Object').fill(object!);
    await writeForm.getByRole('button', { name: 'Write tuple' }).click();
    await expect(writeForm.getByRole('status')).toHaveText('1 tuple(s) written');
    await expect(writeForm.getByLabel('User')).toHaveValue('');
  }
  // The server checks tuples against the model and says why it refuses one.
  await writeForm.getByLabel('User').fill('user:anne');
  await writeForm.getByLabel('Relation').fill('reader');
  await writeForm.getByLabel('Object').fill('document:roadmap');
  await writeForm.getByRole('button', { name: 'Write tuple' }).click();
  await expect(writeForm.getByRole('alert')).toContainText('reader');

  const table = page.getByRole('table', { name: 'Stored relationship tuples' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table).toContainText('document:roadmap');
  await expect(table).toContainText('document:budget');
  const filters = page.getByRole('search');
  await filters.getByLabel('User').fill('user:carl');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).not.toContainText('document:roadmap');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'fga-tuples');

  await page.getByRole('button', { name: 'Delete user:carl owner document:budget' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this tuple?' });
  await expect(dialog).toContainText('user:carl owner document:budget');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No tuples match these filters.')).toBeVisible();
  await filters.getByRole('button', { name: 'Clear' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('user:anne');

  // Tester: the stored tuple allows anne, not bob; a contextual tuple allows bob for that one check.
  await page.getByRole('tab', { name: 'Tester' }).click();
  await expect(page).toHaveURL(/\/dashboard\/fga\/tester$/);
  const check = page.getByRole('region', { name: 'Check' });
  await check.getByLabel('User', { exact: true }).fill('user:anne');
  await check.getByLabel('Relation', { exact: true }).fill('viewer');
  await check.getByLabel('Object', { exact: true }).fill('document:roadmap');
  await check.getByRole('button', { name: 'Run check' }).click();
  const answer = check.getByTestId('check-answer');
  await expect(answer).toContainText('Allowed');
  await expect(answer).toContainText('user:anne is viewer of document:roadmap.');

  await check.getByLabel('User', { exact: true }).fill('user:bob');
  await check.getByRole('button', { name: 'Run check' }).click();
  await expect(answer).toContainText('Not allowed');
  await expect(answer).toContainText('user:bob is not viewer of document:roadmap.');

  await check.getByRole('button', { name: 'Add a contextual tuple' }).click();
  await check.getByLabel('User of contextual tuple 1').fill('user:bob');
  await check.getByLabel('Relation of contextual tuple 1').fill('editor');
  await check.getByLabel('Object of contextual tuple 1').fill('document:roadmap');
  await check.getByRole('button', { name: 'Run check' }).click();
  await expect(answer).toContainText('Allowed');
  await expect(answer).toContainText('(with 1 contextual tuple)');

  const list = page.getByRole('region', { name: 'List objects' });
  await list.getByLabel('User').fill('user:anne');
  await list.getByLabel('Relation').fill('viewer');
  await list.getByLabel('Object type').fill('document');
  await list.getByRole('button', { name: 'List objects' }).click();
  await expect(list.getByTestId('list-answer')).toContainText('user:anne is viewer of 1 document:');
  await expect(list.getByTestId('list-answer')).toContainText('document:roadmap');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'fga-tester');

  // The contextual tuple was never stored.
  await page.getByRole('tab', { name: 'Tuples' }).click();
  await expect(page.getByRole('table', { name: 'Stored relationship tuples' }).getByRole('row')).toHaveCount(2);

  // On a phone (375 px) every tab fits the width: the tables scroll inside their own box, forms stack.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ['', '/tuples', '/tester']) {
    await page.goto(`${portcullis.url}/dashboard/fga${path}`);
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  }
  await screenshot(page, 'fga-tester-phone');
  expect(errors).toEqual([]);
});

test('the playground runs a query with GraphiQL served from the executable', async ({ page, portcullis }) => {
  const errors = collectConsoleErrors(page);
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(portcullis.url) && !request.url().startsWith('blob:') && !request.url().startsWith('data:')) outside.push(request.url());
  });
  await signInAsAdmin(page, portcullis);
  await page.goto(`${portcullis.url}/dashboard/playground`);
  await expect(page.getByRole('heading', { name: 'GraphQL playground' })).toBeVisible();
  const run = page.getByRole('button', { name: /Execute query/ });
  await expect(run).toBeVisible({ timeout: 30_000 });
  // Monaco (its workers under the page's CSP) has rendered the default operation.
  await expect(page.locator('.graphiql-query-editor .view-lines')).toContainText('version', { timeout: 30_000 });
  await run.click();
  await expect(page.locator('.graphiql-response')).toContainText('"version"', { timeout: 15_000 });
  await expect(page.locator('.graphiql-response')).toContainText('portcullis');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'playground');
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});
