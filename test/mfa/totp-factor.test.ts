/**
 * The TOTP factor on storage (server/modules/mfa/totp-factor.ts) on SQLite, PostgreSQL and MariaDB: the
 * secret is sealed at rest, the first right code verifies the enrolment, a code works once per step even
 * when two requests race, and recovery codes are stored as digests and work once.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import { createSealer } from '../../server/kernel/encryption.ts';
import { MfaFactor } from '../../server/modules/mfa/mfa-factor.entity.ts';
import { User } from '../../server/modules/users/user.entity.ts';
import { beginTotpEnrolment, checkTotpFactor, useRecoveryCode } from '../../server/modules/mfa/totp-factor.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/modules/mfa/totp.ts';
import { openTestDatabaseStorage, type TestDatabaseStorage } from '../support/test-storage.ts';
import { STORE_KINDS, TestClock } from '../verification/store.ts';

const sealer = createSealer({ encryptionKey: 'totp-factor-test-key', jwtSecret: undefined });

for (const kind of STORE_KINDS) {
  describe(`TOTP factor on ${kind}`, () => {
    let store: TestDatabaseStorage;
    before(async () => {
      store = await openTestDatabaseStorage(kind);
    });
    after(() => store?.close());
    const em = () => store.storage.fork();

    test('enrolment stores neither the secret nor the recovery codes in clear, and needs a code to count', async () => {
      const clock = new TestClock('2026-06-01T10:00:00.000Z');
      const deps = { clock, sealer };
      const now = clock.now();
      const owner = em();
      owner.create(User, { id: 'u-enrol', email: 'enrol@example.com', signupMethods: 'basic_auth', roles: ['user'], createdAt: now, updatedAt: now });
      await owner.flush();
      const { secret, recoveryCodes } = await beginTotpEnrolment(em(), deps, 'u-enrol');
      assert.equal(recoveryCodes.length, 10);
      const dump = JSON.stringify(await em().getConnection().execute('select * from mfa_factors')) +
        JSON.stringify(await em().getConnection().execute('select * from mfa_recovery_codes'));
      assert.ok(!dump.includes(secret), 'the TOTP secret is stored in clear');
      for (const code of recoveryCodes) assert.ok(!dump.includes(code) && !dump.includes(code.replace('-', '')), 'a recovery code is stored in clear');
      const code = totpCode(secret, clock.now());
      assert.equal(await checkTotpFactor(em(), deps, 'u-enrol', code), false, 'an unverified factor does not pass the gate');
      assert.equal(await checkTotpFactor(em(), deps, 'u-enrol', code, { enrolment: true }), true);
      const row = await em().findOneOrFail(MfaFactor, { userId: 'u-enrol', method: 'totp' });
      assert.ok(row.verifiedAt, 'the first right code verifies the factor');
      const user = await em().findOneOrFail(User, { id: 'u-enrol' });
      assert.deepEqual(user.enrolledMfaMethods, ['totp'], 'the user row lists the verified factor');
      await assert.rejects(beginTotpEnrolment(em(), deps, 'u-enrol'), (err: unknown) => err instanceof AppError && err.kind === 'failed_precondition');
    });

    test('a code is accepted once per step, and only one of two racing requests gets it', async () => {
      const clock = new TestClock('2026-06-02T10:00:00.000Z');
      const deps = { clock, sealer };
      const { secret } = await beginTotpEnrolment(em(), deps, 'u-replay');
      assert.equal(await checkTotpFactor(em(), deps, 'u-replay', totpCode(secret, clock.now()), { enrolment: true }), true);
      clock.advance(TOTP_PERIOD_SECONDS);
      const code = totpCode(secret, clock.now());
      const raced = await Promise.all([checkTotpFactor(em(), deps, 'u-replay', code), checkTotpFactor(em(), deps, 'u-replay', code)]);
      assert.deepEqual(raced.filter(Boolean).length, 1, `racing checks answered ${JSON.stringify(raced)}`);
      assert.equal(await checkTotpFactor(em(), deps, 'u-replay', code), false, 'the same code in the same step');
      clock.advance(TOTP_PERIOD_SECONDS);
      assert.equal(await checkTotpFactor(em(), deps, 'u-replay', totpCode(secret, clock.now())), true, 'the next step works');
      assert.equal(await checkTotpFactor(em(), deps, 'u-replay', '000000x'), false);
    });

    test('a secret sealed under another key is refused, not an error', async () => {
      const clock = new TestClock('2026-06-03T10:00:00.000Z');
      const { secret } = await beginTotpEnrolment(em(), { clock, sealer }, 'u-rotated');
      const otherKey = createSealer({ encryptionKey: 'another-key', jwtSecret: undefined });
      assert.equal(await checkTotpFactor(em(), { clock, sealer: otherKey }, 'u-rotated', totpCode(secret, clock.now()), { enrolment: true }), false);
    });

    test('each recovery code works once, another user cannot spend it, and a new enrolment replaces the set', async () => {
      const clock = new TestClock('2026-06-04T10:00:00.000Z');
      const deps = { clock, sealer };
      const { recoveryCodes } = await beginTotpEnrolment(em(), deps, 'u-recover');
      await beginTotpEnrolment(em(), deps, 'u-other');
      assert.equal(await useRecoveryCode(em(), deps, 'u-other', recoveryCodes[0]!), false, 'another user');
      const raced = await Promise.all([useRecoveryCode(em(), deps, 'u-recover', recoveryCodes[0]!), useRecoveryCode(em(), deps, 'u-recover', recoveryCodes[0]!.toLowerCase())]);
      assert.equal(raced.filter(Boolean).length, 1, `racing uses answered ${JSON.stringify(raced)}`);
      assert.equal(await useRecoveryCode(em(), deps, 'u-recover', recoveryCodes[0]!), false, 'a used code');
      assert.equal(await useRecoveryCode(em(), deps, 'u-recover', recoveryCodes[1]!), true);
      const again = await beginTotpEnrolment(em(), deps, 'u-recover');
      assert.equal(await useRecoveryCode(em(), deps, 'u-recover', recoveryCodes[2]!), false, 'codes of the earlier set');
      assert.equal(await useRecoveryCode(em(), deps, 'u-recover', again.recoveryCodes[2]!), true);
    });
  });
}
