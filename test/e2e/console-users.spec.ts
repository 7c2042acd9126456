/**
 * The admin journey over users: a person signs up, the admin finds them by search, changes
 * a role, sees and revokes one of their sessions, revokes access (the person's next call fails), enables it
 * again, and deletes them after confirming. Then invitations, verification requests, and a user list longer
 * than one page.
 */
import { screenshot, uniqueEmail } from './support/fixtures.ts';
import { adminCall, logIn, profileWith, signUpUser, test, expect } from './support/console-fixtures.ts';
import { searchUsers, signInToConsole } from './support/console-page.ts';

test('admin finds a user, changes a role, revokes a session and access, enables it, deletes the user', async ({ page, consoleServer }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('journey');
  const person = await signUpUser(consoleServer, email);
  const second = await logIn(consoleServer, email);
  expect(await profileWith(consoleServer, person.accessToken)).toBe('ok');

  await signInToConsole(page, consoleServer);
  await searchUsers(page, email.slice(0, 14));
  await screenshot(page, 'console-users');
  await page.getByRole('link', { name: email }).click();
  await expect(page.getByRole('heading', { level: 1, name: email })).toBeVisible();

  // Roles: add "editor"; the saved roles come back from the server.
  const roles = page.getByRole('combobox', { name: 'Roles of this user' });
  await roles.click();
  await page.getByRole('option', { name: 'editor' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save roles' }).click();
  await expect(page.getByText('Roles saved.')).toBeVisible();
  const saved = await adminCall(consoleServer, 'query($p: GetUserRequest!) { _user(params: $p) { roles } }', { p: { id: person.id } });
  expect(saved._user.roles.sort()).toEqual(['editor', 'user']);

  // Sessions: both logins are listed; revoking the first one's ends it at once, the other keeps working.
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await screenshot(page, 'console-user');
  await rows.last().getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('session revoked successfully')).toBeVisible();
  await expect(rows).toHaveCount(1);
  expect(await profileWith(consoleServer, person.accessToken)).toBe('UNAUTHENTICATED');
  expect(await profileWith(consoleServer, second.accessToken)).toBe('ok');

  // Revoke access (confirmed): the person's next call fails and they cannot sign in.
  await page.getByRole('button', { name: 'Revoke access' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke access?' });
  await expect(confirm).toContainText(email);
  await confirm.getByRole('button', { name: 'Revoke access' }).click();
  await expect(page.getByText('user access revoked successfully')).toBeVisible();
  await expect(page.getByText('Access revoked', { exact: true })).toBeVisible();
  expect(await profileWith(consoleServer, second.accessToken)).toBe('UNAUTHENTICATED');
  expect((await logIn(consoleServer, email)).error).toBeTruthy();
  await expect(page.getByText('No active sessions.')).toBeVisible();

  await page.getByRole('button', { name: 'Enable access' }).click();
  await expect(page.getByText('user access enabled successfully')).toBeVisible();
  const again = await logIn(consoleServer, email);
  expect(again.error).toBeUndefined();
  expect(await profileWith(consoleServer, again.accessToken)).toBe('ok');

  // Delete: cancelling keeps the user; confirming removes them and returns to the list.
  await page.getByRole('button', { name: 'Delete user' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { level: 1, name: email })).toBeVisible();
  await page.getByRole('button', { name: 'Delete user' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete permanently' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  await expect(page.getByText(`No user matches “${email}”.`)).toBeVisible();
  expect(await profileWith(consoleServer, again.accessToken)).toBe('UNAUTHENTICATED');
});

test('invitations fill more than one page of users; pages and verification requests', async ({ page, consoleServer }) => {
  test.setTimeout(120_000);
  const batch = uniqueEmail('batch').split('@')[0]!;
  const emails = Array.from({ length: 12 }, (_, i) => `${batch}-${String(i).padStart(2, '0')}@example.com`);
  await signInToConsole(page, consoleServer);
  await page.getByRole('button', { name: 'Invite members' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite members' });
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(dialog.getByText('Add at least one email address.')).toBeVisible();
  const input = dialog.getByRole('combobox', { name: 'Email addresses' });
  for (const email of emails) {
    await input.fill(email);
    await input.press('Enter');
  }
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(page.getByText('Invited 12 member(s) successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Twelve matches at ten a page: two pages, the second holds the two oldest.
  await page.getByRole('searchbox', { name: 'Search users' }).fill(batch);
  await expect(page).toHaveURL(new RegExp(`/dashboard/users\\?q=${batch}$`));
  await expect(page.getByText('Showing 1–10 of 12')).toBeVisible();
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(11);
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(page.getByText('Showing 11–12 of 12')).toBeVisible();
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('link', { name: emails[0]! })).toBeVisible();
  // A new search starts again from page 1.
  await page.getByRole('searchbox', { name: 'Search users' }).fill(`${batch}-05`);
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`\\?q=${batch}-05$`));
  // The list is in the URL: back returns to page 2 of the wider search.
  await page.goBack();
  await expect(page.getByText('Showing 11–12 of 12')).toBeVisible();

  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Verification requests' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verification requests' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(emails[11]!) })).toContainText('Invitation');
  await screenshot(page, 'console-verification-requests');
});

test('a failing action shows the server message', async ({ page, consoleServer }) => {
  const email = uniqueEmail('failing');
  const person = await signUpUser(consoleServer, email);
  await signInToConsole(page, consoleServer);
  await page.goto(`${consoleServer.url}/dashboard/users/${person.id}`);
  await expect(page.getByRole('heading', { level: 1, name: email })).toBeVisible();
  // Someone else deletes the user meanwhile: the console's action answers with the server's words.
  await adminCall(consoleServer, 'mutation($p: DeleteUserRequest!) { _delete_user(params: $p) { message } }', { p: { id: person.id } });
  await page.getByRole('button', { name: 'Revoke access' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke access' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'user not found' }).first()).toBeVisible();
});
