/**
 * users/address-proof.ts: the one answer to "was this address proven", for email and phone alike, which
 * decides account links, outward verified claims and SAML assertions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clearEmailVerification, clearPhoneVerification, emailProven, emailProvenForLinking, markEmailVerified, markPhoneVerified,
  phoneProven, provenAddressClaims, PHONE_PROOFS, type EmailProof,
} from '../../server/modules/users/address-proof.ts';

type State = { email: string | null; emailVerifiedAt: Date | null; emailVerifiedVia: string | null; phoneNumber: string | null; phoneNumberVerifiedAt: Date | null };
const fresh = (): State => ({ email: 'a@example.com', emailVerifiedAt: null, emailVerifiedVia: null, phoneNumber: '+15550001111', phoneNumberVerifiedAt: null });
const T0 = new Date('2026-03-01T00:00:00Z');
const T1 = new Date('2026-03-02T00:00:00Z');

test('link, password reset, an administrator, a social provider and an organization IdP prove the address; unproven and nothing do not', () => {
  for (const via of ['link', 'password_reset', 'admin', 'provider', 'organization'] as EmailProof[]) {
    const user = fresh();
    markEmailVerified(user, via, T0);
    assert.equal(emailProven(user), true, via);
    assert.equal(user.emailVerifiedAt, T0);
  }
  const unproven = fresh();
  markEmailVerified(unproven, 'unproven', T0);
  assert.notEqual(unproven.emailVerifiedAt, null, 'still email_verified in the API');
  assert.equal(emailProven(unproven), false);
  assert.equal(emailProven(fresh()), false);
});

test('emailProvenForLinking is the same function', () => {
  assert.equal(emailProvenForLinking, emailProven);
});

test('verified before the column existed (no record of how) does not count', () => {
  assert.equal(emailProven({ email: 'a@example.com', emailVerifiedAt: T0, emailVerifiedVia: null }), false);
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
  assert.equal(emailProven({ email: null, emailVerifiedAt: T0, emailVerifiedVia: 'link' }), false);
});

test('a phone number is proven by a texted code, a reset by texted code or an administrator; cleared, or without a number, it is not', () => {
  assert.deepEqual([...PHONE_PROOFS], ['code', 'password_reset', 'admin']);
  for (const via of PHONE_PROOFS) {
    const user = fresh();
    assert.equal(phoneProven(user), false);
    markPhoneVerified(user, via, T0);
    assert.equal(phoneProven(user), true, via);
    markPhoneVerified(user, via, T1);
    assert.equal(user.phoneNumberVerifiedAt, T0, 'the first verification time stays');
    clearPhoneVerification(user);
    assert.equal(phoneProven(user), false);
  }
  assert.equal(phoneProven({ phoneNumber: null, phoneNumberVerifiedAt: T0 }), false);
});

test('the outward verified claims are the proofs, not the verified-at flags', () => {
  const user = fresh();
  markEmailVerified(user, 'unproven', T0);
  markPhoneVerified(user, 'code', T0);
  assert.deepEqual(provenAddressClaims(user), { email_verified: false, phone_number_verified: true });
  markEmailVerified(user, 'link', T1);
  clearPhoneVerification(user);
  assert.deepEqual(provenAddressClaims(user), { email_verified: true, phone_number_verified: false });
});
