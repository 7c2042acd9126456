/** users/email-proof.ts: which ways of verifying an email count as proof for linking a federated sign-in. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clearEmailVerification, emailProvenForLinking, markEmailVerified, type EmailProof } from '../../server/modules/users/email-proof.ts';

type State = { email: string | null; emailVerifiedAt: Date | null; emailVerifiedVia: string | null };
const fresh = (): State => ({ email: 'a@example.com', emailVerifiedAt: null, emailVerifiedVia: null });
const T0 = new Date('2026-03-01T00:00:00Z');
const T1 = new Date('2026-03-02T00:00:00Z');

test('link, password reset and an administrator prove the address; unproven and nothing do not', () => {
  for (const via of ['link', 'password_reset', 'admin'] as EmailProof[]) {
    const user = fresh();
    markEmailVerified(user, via, T0);
    assert.equal(emailProvenForLinking(user), true, via);
    assert.equal(user.emailVerifiedAt, T0);
  }
  const unproven = fresh();
  markEmailVerified(unproven, 'unproven', T0);
  assert.notEqual(unproven.emailVerifiedAt, null, 'still email_verified in the API');
  assert.equal(emailProvenForLinking(unproven), false);
  assert.equal(emailProvenForLinking(fresh()), false);
});

test('verified before the column existed (no record of how) does not count', () => {
  assert.equal(emailProvenForLinking({ email: 'a@example.com', emailVerifiedAt: T0, emailVerifiedVia: null }), false);
});

test('a proof upgrades unproven; unproven never downgrades a proof; the first verification time stays', () => {
  const user = fresh();
  markEmailVerified(user, 'unproven', T0);
  markEmailVerified(user, 'link', T1);
  assert.equal(user.emailVerifiedVia, 'link');
  assert.equal(user.emailVerifiedAt, T0);
  markEmailVerified(user, 'unproven', T1);
  assert.equal(user.emailVerifiedVia, 'link');
});

test('clearing, or having no email at all, proves nothing', () => {
  const user = fresh();
  markEmailVerified(user, 'link', T0);
  clearEmailVerification(user);
  assert.deepEqual([user.emailVerifiedAt, user.emailVerifiedVia], [null, null]);
  assert.equal(emailProvenForLinking({ email: null, emailVerifiedAt: T0, emailVerifiedVia: 'link' }), false);
});
