/**
 * The console's FGA section and playground in Chromium against the executable: the model editor's
 * as-you-type diagnostics and the server's refusal, the tuple browser, the tester, a phone's width, and
 * GraphiQL running a query under the page's CSP with nothing fetched from elsewhere. Each test seeds what it
 * needs over GraphQL and uses ids of its own, so the tests stand alone on the worker's shared server.
 */
import { test, expect, screenshot } from './support/fixtures.ts';
import { API_VERSION } from '../../server/version.ts';
import { collectConsoleErrors, replaceEditorText, seedFga, signInAsAdmin, uniqueSuffix } from './support/fga-admin.ts';

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

test('the model editor shows the parser\'s problems as you type, and saves only what the server accepts', async ({ page, portcullis }) => {
  const errors = collectConsoleErrors(page);
  await signInAsAdmin(page, portcullis);
  await page.goto(`${portcullis.url}/dashboard/fga`);
  await expect(page.getByRole('heading', { level: 2, name: 'Authorization model' })).toBeVisible();
  const status = page.getByTestId('dsl-status');

  // The parser's diagnostic shows as the text is typed, before anything is saved.
  await replaceEditorText(page, BROKEN_MODEL);
  await expect(status).toContainText('The parser found 1 problem');
  await expect(status).toContainText('Line 8');
  await expect(status).toContainText('usr');
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();
  // Saving it anyway: the server refuses with its own words.
  await page.getByRole('button', { name: 'Save model' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The server refused the model' });
  await expect(refusal).toContainText('`usr` is not a valid type');

  // The server's own bound on nesting is checked here too, before the parser runs.
  const deep = `${'('.repeat(17)}owner${')'.repeat(17)}`;
  await replaceEditorText(page, MODEL.replace('define owner: [user]', `define owner: [user]\n    define deep: ${deep}`));
  await expect(status).toContainText('Parentheses nest deeper than 16 levels, more than the server accepts.');

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
  // Tab indents inside the editor; Escape then Tab moves on (no keyboard trap, WCAG 2.1.2).
  await page.locator('.cm-content').click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(page.locator('.cm-content')).not.toBeFocused();

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
  await expect(page).toHaveURL(/\/dashboard\/fga\/tuples$/);
  expect(errors).toEqual([]);
});

test('the tuple browser writes, filters and deletes tuples, showing the server\'s refusals', async ({ page, portcullis }) => {
  const errors = collectConsoleErrors(page);
  const id = uniqueSuffix();
  const [anne, carl, roadmap, budget] = [`user:anne-${id}`, `user:carl-${id}`, `document:roadmap-${id}`, `document:budget-${id}`];
  await signInAsAdmin(page, portcullis);
  await seedFga(page, portcullis, MODEL, []);
  await page.goto(`${portcullis.url}/dashboard/fga/tuples`);

  const writeForm = page.getByRole('region', { name: 'Write a tuple' });
  for (const [user, relation, object] of [[anne, 'viewer', roadmap], [carl, 'owner', budget]] as const) {
    await writeForm.getByLabel('User').fill(user);
    await writeForm.getByLabel('Relation').fill(relation);
    await writeForm.getByLabel('Object').fill(object);
    await writeForm.getByRole('button', { name: 'Write tuple' }).click();
    await expect(writeForm.getByRole('status')).toHaveText('1 tuple(s) written');
    await expect(writeForm.getByLabel('User')).toHaveValue('');
  }
  // The server checks tuples against the model and says why it refuses one.
  await writeForm.getByLabel('User').fill(anne);
  await writeForm.getByLabel('Relation').fill('reader');
  await writeForm.getByLabel('Object').fill(roadmap);
  await writeForm.getByRole('button', { name: 'Write tuple' }).click();
  await expect(writeForm.getByRole('alert')).toContainText("relation 'reader' is not defined on type 'document'");

  const table = page.getByRole('table', { name: 'Stored relationship tuples' });
  await expect(table).toContainText(roadmap);
  await expect(table).toContainText(budget);
  const filters = page.getByRole('search');
  await filters.getByLabel('User').fill(carl);
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(table.getByRole('row')).toHaveCount(2); // the header and carl's one tuple
  await expect(table).not.toContainText(roadmap);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'fga-tuples');

  await page.getByRole('button', { name: `Delete ${carl} owner ${budget}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this tuple?' });
  await expect(dialog).toContainText(`${carl} owner ${budget}`);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No tuples match these filters.')).toBeVisible();

  await filters.getByLabel('User').fill(anne);
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText(roadmap);
  expect(errors).toEqual([]);
});

test('the tuple browser pages through the server\'s continuation tokens', async ({ page, portcullis }) => {
  const id = uniqueSuffix();
  const user = `user:paged-${id}`;
  const tuples = Array.from({ length: 12 }, (_, n) => ({ user, relation: 'owner', object: `document:page-${id}-${String(n).padStart(2, '0')}` }));
  await signInAsAdmin(page, portcullis);
  await seedFga(page, portcullis, MODEL, tuples);
  await page.goto(`${portcullis.url}/dashboard/fga/tuples`);
  await page.getByRole('combobox', { name: 'Per page' }).click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  const filters = page.getByRole('search');
  await filters.getByLabel('User').fill(user);
  await filters.getByRole('button', { name: 'Apply filters' }).click();

  const rows = page.getByRole('table', { name: 'Stored relationship tuples' }).getByRole('row');
  await expect(rows).toHaveCount(11);
  const firstPage = await rows.allTextContents();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Page 2')).toBeVisible();
  await expect(rows).toHaveCount(3);
  const secondPage = await rows.allTextContents();
  // Twelve distinct tuples over the two pages, none twice.
  const seen = new Set([...firstPage.slice(1), ...secondPage.slice(1)]);
  expect(seen.size).toBe(12);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(rows).toHaveCount(11);
  expect(await rows.allTextContents()).toEqual(firstPage);
});

test('the tester answers checks, with contextual tuples, and lists objects', async ({ page, portcullis }) => {
  const errors = collectConsoleErrors(page);
  const id = uniqueSuffix();
  const [anne, bob, roadmap] = [`user:anne-${id}`, `user:bob-${id}`, `document:roadmap-${id}`];
  await signInAsAdmin(page, portcullis);
  await seedFga(page, portcullis, MODEL, [{ user: anne, relation: 'viewer', object: roadmap }]);
  await page.goto(`${portcullis.url}/dashboard/fga/tester`);

  const check = page.getByRole('region', { name: 'Check' });
  await check.getByLabel('User', { exact: true }).fill(anne);
  await check.getByLabel('Relation', { exact: true }).fill('viewer');
  await check.getByLabel('Object', { exact: true }).fill(roadmap);
  await check.getByRole('button', { name: 'Run check' }).click();
  const answer = check.getByTestId('check-answer');
  await expect(answer).toContainText('Allowed');
  await expect(answer).toContainText(`${anne} is viewer of ${roadmap}.`);

  await check.getByLabel('User', { exact: true }).fill(bob);
  await check.getByRole('button', { name: 'Run check' }).click();
  await expect(answer).toContainText('Not allowed');
  await expect(answer).toContainText(`${bob} is not viewer of ${roadmap}.`);

  // A contextual tuple counts for this one check (editor implies viewer in the model)...
  await check.getByRole('button', { name: 'Add a contextual tuple' }).click();
  await check.getByLabel('User of contextual tuple 1').fill(bob);
  await check.getByLabel('Relation of contextual tuple 1').fill('editor');
  await check.getByLabel('Object of contextual tuple 1').fill(roadmap);
  await check.getByRole('button', { name: 'Run check' }).click();
  await expect(answer).toContainText('Allowed');
  await expect(answer).toContainText('(with 1 contextual tuple)');
  // ...and is never stored: without it, bob is refused again.
  await check.getByRole('button', { name: 'Remove contextual tuple 1' }).click();
  await check.getByRole('button', { name: 'Run check' }).click();
  await expect(answer).toContainText('Not allowed');

  // The server's refusal of a question it cannot answer is shown in its words.
  await check.getByLabel('Relation', { exact: true }).fill('approver');
  await check.getByRole('button', { name: 'Run check' }).click();
  await expect(check.getByRole('alert')).toContainText('approver');

  const list = page.getByRole('region', { name: 'List objects' });
  await list.getByLabel('User').fill(anne);
  await list.getByLabel('Relation').fill('viewer');
  await list.getByLabel('Object type').fill('document');
  await list.getByRole('button', { name: 'List objects' }).click();
  await expect(list.getByTestId('list-answer')).toContainText(`${anne} is viewer of 1 document:`);
  await expect(list.getByTestId('list-answer')).toContainText(roadmap);
  await check.getByLabel('Relation', { exact: true }).fill('viewer');
  await check.getByRole('button', { name: 'Run check' }).click();
  await expect(answer).toContainText('Not allowed');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'fga-tester');
  expect(errors).toEqual([]);
});

test('every FGA tab fits a phone\'s width', async ({ page, portcullis }) => {
  await signInAsAdmin(page, portcullis);
  await seedFga(page, portcullis, MODEL, []);
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ['', '/tuples', '/tester']) {
    await page.goto(`${portcullis.url}/dashboard/fga${path}`);
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toBeVisible();
    // Tables scroll inside their own box and forms stack: the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  }
  await screenshot(page, 'fga-tester-phone');
});

test('the playground runs a query with GraphiQL served from the executable', async ({ page, portcullis }) => {
  const errors = collectConsoleErrors(page);
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(portcullis.url) && !url.startsWith('blob:') && !url.startsWith('data:')) elsewhere.push(url);
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
  // The answer is the server's own: meta `version` is the API line it serves.
  await expect(page.locator('.graphiql-response')).toContainText(`"${API_VERSION}"`);
  await screenshot(page, 'playground');
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});
