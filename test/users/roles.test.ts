/**
 * Role rules (docs/configuration.md#defaults): --roles, --default-roles, --protected-roles at
 * signup; held roles at login.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rolesForSignup, rolesForLogin, assignableRoles } from '../../server/modules/users/index.ts';
import { AppError } from '../../server/kernel/errors.ts';

const config = { roles: ['user', 'editor', 'admin'], defaultRoles: ['user'], protectedRoles: ['admin'] };

function refused(fn: () => unknown, kind: AppError['kind'], message: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof AppError && err.kind === kind && message.test(err.message));
}

describe('roles', () => {
  test('signup gets the default roles unless it asks for allowed ones', () => {
    assert.deepEqual(rolesForSignup(config), ['user']);
    assert.deepEqual(rolesForSignup(config, []), ['user']);
    assert.deepEqual(rolesForSignup(config, ['editor', 'user', 'editor']), ['editor', 'user']);
  });

  test('signup cannot ask for a protected role or one outside --roles', () => {
    refused(() => rolesForSignup(config, ['admin']), 'invalid_argument', /"admin" cannot be requested/);
    refused(() => rolesForSignup(config, ['user', 'owner']), 'invalid_argument', /"owner"/);
  });

  test('login narrows to held roles and refuses roles the user lacks', () => {
    const user = { roles: ['user', 'editor'] };
    assert.deepEqual(rolesForLogin(user), ['user', 'editor']);
    assert.deepEqual(rolesForLogin(user, ['editor']), ['editor']);
    refused(() => rolesForLogin(user, ['editor', 'admin']), 'permission_denied', /requested roles/);
  });

  test('administrators may assign any configured role, protected ones included, but not none', () => {
    assert.deepEqual(assignableRoles(config, ['admin', 'user']), ['admin', 'user']);
    refused(() => assignableRoles(config, ['root']), 'invalid_argument', /"root" is not one of the configured roles/);
    refused(() => assignableRoles(config, []), 'invalid_argument', /at least one role/);
  });
});
