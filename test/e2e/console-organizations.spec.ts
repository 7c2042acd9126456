/**
 * The admin journey over organizations (docs/api-overview.md#resources-and-fields, docs/operations.md "Organizations"): create one through
 * the dialog (the slug is suggested from the display name and checked as the server checks it), find it by
 * search among others, add a person as a member with org roles picked by searching users, make them an
 * org-admin, remove them after the confirmation, rename and disable the organization, and delete it; then a
 * list longer than one page.
 */
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { adminCall, signUpUser, test, expect } from './support/console-fixtures.ts';
import { signInToConsole } from './support/console-page.ts';

const MEMBERS = 'query($p: OrgMembersRequest!) { _org_members(params: $p) { members { user_id roles } } }';

test('admin creates an organization, manages its members and settings, and deletes it', async ({ page, consoleServer }) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  const email = uniqueEmail('org-member');
  const person = await signUpUser(consoleServer, email);
  await adminCall(consoleServer, 'mutation($p: CreateOrganizationRequest!) { _create_organization(params: $p) { id } }', {
    p: { name: `globex-${suffix}`, display_name: 'Globex Industries' },
  });

  await signInToConsole(page, consoleServer);
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Organizations' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();

  // Create: the slug follows the display name; a slug the server would refuse is refused beside its field.
  await page.getByRole('button', { name: 'Create organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an organization' });
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(dialog.getByText('Enter a display name.')).toBeVisible();
  await dialog.getByLabel('Display name').fill(`Acme Ünited ${suffix}`);
  await expect(dialog.getByLabel('Slug')).toHaveValue(`acme-united-${suffix}`);
  await dialog.getByLabel('Slug').fill('-Acme_Corp');
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(dialog.getByText('Use lowercase letters, digits and hyphens (not first or last), at most 63 characters.')).toBeVisible();
  await dialog.getByLabel('Slug').fill('a'.repeat(64));
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(dialog.getByText('Use lowercase letters, digits and hyphens (not first or last), at most 63 characters.')).toBeVisible();
  await dialog.getByLabel('Slug').fill(`acme-${suffix}`);
  await screenshot(page, 'console-organization-create');
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: `Acme Ünited ${suffix}` })).toBeVisible();
  const orgId = page.url().split('/organizations/')[1]!;

  // The same slug again is the server's refusal, shown in its words.
  await page.getByRole('link', { name: 'All organizations' }).click();
  await page.getByRole('button', { name: 'Create organization' }).click();
  await dialog.getByLabel('Display name').fill('Copycat');
  await dialog.getByLabel('Slug').fill(`acme-${suffix}`);
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'That did not work' });
  await expect(refusal).toContainText('an organization with this name already exists');
  await refusal.getByRole('button').click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Search finds one of the two.
  const table = page.getByRole('table', { name: 'Organizations' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await page.getByRole('searchbox', { name: 'Search organizations' }).fill('globex');
  await expect(page).toHaveURL(/[?]q=globex/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('link', { name: 'Globex Industries' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search organizations' }).fill('');
  await expect(table.getByRole('row')).toHaveCount(3);
  await screenshot(page, 'console-organizations');
  await table.getByRole('link', { name: `Acme Ünited ${suffix}` }).click();
  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(page).toHaveURL(/[?]tab=members/);
  await expect(page.getByText('No members yet.')).toBeVisible();

  // Add a member: the user is found by the server's search; org roles are tags.
  await page.getByRole('button', { name: 'Add member' }).click();
  const add = page.getByRole('dialog', { name: 'Add a member' });
  await add.getByRole('button', { name: 'Add member' }).click();
  await expect(add.getByText('Pick a user.')).toBeVisible();
  await add.getByRole('combobox', { name: 'User' }).fill(email.slice(0, 16));
  await page.getByRole('option', { name: email }).click();
  const roles = add.getByRole('combobox', { name: 'Org roles' });
  await roles.fill('billing');
  await roles.press('Enter');
  await expect(add.getByText('service:org_admin lets a member administer', { exact: false })).toBeVisible();
  await screenshot(page, 'console-organization-add-member');
  await add.getByRole('button', { name: 'Add member' }).click();
  await expect(add).toBeHidden();
  const members = page.getByRole('table', { name: 'Members of the organization' });
  const row = members.getByRole('row').filter({ hasText: email });
  await expect(row.getByText('billing')).toBeVisible();
  expect((await adminCall(consoleServer, MEMBERS, { p: { org_id: orgId } }))._org_members.members).toEqual([{ user_id: person.id, roles: ['billing'] }]);

  // Make them an org-admin: the reserved role is offered.
  await row.getByRole('button', { name: `Edit the roles of ${email}` }).click();
  const edit = page.getByRole('dialog', { name: `Org roles of ${email}` });
  await edit.getByRole('combobox', { name: 'Org roles' }).click();
  await page.getByRole('option', { name: 'service:org_admin' }).click();
  await edit.getByRole('button', { name: 'Save roles' }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByText('service:org_admin')).toBeVisible();
  const saved = (await adminCall(consoleServer, MEMBERS, { p: { org_id: orgId } }))._org_members.members;
  expect(saved[0].roles.sort()).toEqual(['billing', 'service:org_admin']);
  await screenshot(page, 'console-organization');

  // Remove after the confirmation; the account stays.
  await row.getByRole('button', { name: `Remove ${email}` }).click();
  const confirmRemove = page.getByRole('dialog', { name: `Remove ${email}?` });
  await expect(confirmRemove).toContainText('The account itself stays.');
  await confirmRemove.getByRole('button', { name: 'Remove member' }).click();
  await expect(page.getByText('No members yet.')).toBeVisible();
  expect((await adminCall(consoleServer, MEMBERS, { p: { org_id: orgId } }))._org_members.members).toEqual([]);
  const user = await adminCall(consoleServer, 'query($p: GetUserRequest!) { _user(params: $p) { id } }', { p: { id: person.id } });
  expect(user._user.id).toBe(person.id);

  // Settings: a new display name; disabling in place.
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByLabel('Display name').fill('Acme Renamed');
  await page.getByLabel('Slug').fill('Not A Slug');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Use lowercase letters, digits and hyphens (not first or last), at most 63 characters.')).toBeVisible();
  await page.getByLabel('Slug').fill(`acme-renamed-${suffix}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // The notification sits over the card's corner where the switch is: dismissed, as a person would.
  const savedNote = page.getByRole('alert').filter({ hasText: 'Organization saved.' });
  await expect(savedNote).toBeVisible();
  await savedNote.getByRole('button').click();
  await expect(savedNote).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Renamed' })).toBeVisible();
  const enabled = page.getByRole('switch', { name: 'Organization enabled' });
  await expect(enabled).toBeChecked();
  await page.locator('label', { has: enabled }).click();
  await expect(enabled).not.toBeChecked();
  await expect(page.getByText('Organization disabled.')).toBeVisible();
  const stored = await adminCall(consoleServer, 'query($p: OrganizationRequest!) { _organization(params: $p) { name display_name enabled } }', { p: { id: orgId } });
  expect(stored._organization).toEqual({ name: `acme-renamed-${suffix}`, display_name: 'Acme Renamed', enabled: false });

  // Delete after the confirmation: back to the list without it.
  await page.getByRole('button', { name: 'Delete organization' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Acme Renamed?' });
  await expect(confirm).toContainText('stop at once');
  await confirm.getByRole('button', { name: 'Delete permanently' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('link', { name: 'Acme Renamed' })).toHaveCount(0);

  // Longer than a page: the server pages it, and the page is in the URL.
  for (let i = 0; i < 10; i++) {
    await adminCall(consoleServer, 'mutation($p: CreateOrganizationRequest!) { _create_organization(params: $p) { id } }', {
      p: { name: `paged-${i}-${suffix}`, display_name: `Paged ${i}` },
    });
  }
  await page.reload();
  await expect(page.getByText('Showing 1–10 of 11')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(11);
  await page.getByLabel('Organizations pages').getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/[?]page=2/);
  await expect(page.getByText('Showing 11–11 of 11')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
});
