/**
 * Only the sign-in policy opens sessions (accounts/sign-in-policy.ts; docs/identity-boundary.md): the
 * functions that issue a session and its tokens are called from exactly one place each, so a new way in
 * cannot skip the account checks and the MFA gate by calling them directly. Read from the source, as a
 * reviewer would grep it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Files outside `definedIn` that call `name(`, as repository-relative paths. */
function callersOf(name: string, definedIn: string): string[] {
  const call = new RegExp(`\\b${name}\\s*\\(`);
  return sourceFiles(join(ROOT, 'server'))
    .map((path) => relative(ROOT, path))
    .filter((path) => path !== definedIn)
    .filter((path) => call.test(readFileSync(join(ROOT, path), 'utf8')))
    .sort();
}

test('sessions are opened only through the sign-in policy', () => {
  assert.deepEqual(callersOf('completeLogin', 'server/modules/accounts/complete-login.ts'), ['server/modules/accounts/sign-in-policy.ts']);
  assert.deepEqual(callersOf('issueSession', 'server/modules/tokens/issue-session.ts'), ['server/modules/accounts/complete-login.ts']);
  assert.deepEqual(callersOf('openSession', 'server/modules/sessions/session-store.ts'), ['server/modules/tokens/issue-session.ts']);
  // The one other way a session opens: a device approved from a live session that passed the policy (RFC 8628).
  assert.deepEqual(callersOf('openSessionFromApproval', 'server/modules/tokens/issue-session.ts'), ['server/modules/oauth/device/device-authorizations.ts']);
  assert.deepEqual(callersOf('secondFactorChallenge', 'server/modules/accounts/mfa-gate.ts'), ['server/modules/accounts/sign-in-policy.ts']);
});
