/**
 * One-time codes (OWASP ASVS 2.7): six digits, sealed digests only, single use, expiry, five attempts,
 * and the counting must survive the refusal (so the check runs outside transactions). Runs on SQLite,
 * PostgreSQL and MariaDB.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AppError } from '../../server/kernel/errors.ts';
import { createSealer } from '../../server/kernel/encryption.ts';
import { MAX_OTP_ATTEMPTS, Otp, consumeOtp, createOtp, deleteOtpsFor } from '../../server/modules/verification/index.ts';
import { openTestStore, STORE_KINDS, TestClock, type TestStore } from './store.ts';
import { createRateLimiter, memoryFactory, policiesFor } from '../../server/modules/limits/index.ts';

const sealer = createSealer({ encryptionKey: 'otp-test-encryption-key', jwtSecret: undefined });
const invalidOtp = (err: unknown) => err instanceof AppError && err.kind === 'invalid_argument' && err.message === 'invalid or expired otp';
const exhausted = (err: unknown) => err instanceof AppError && err.kind === 'too_many_requests';

/** A six-digit code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

for (const kind of STORE_KINDS) {
  describe(`one-time codes on ${kind}`, () => {
    let store: TestStore;
    // consumeOtp also counts guesses per target in the 'otp_guess' limit; one in-memory limiter per database.
    const limits = createRateLimiter(policiesFor({ rateLimitRps: 0, rateLimitBurst: 0, loginLockoutThreshold: 10 }), memoryFactory);
    before(async () => {
      store = await openTestStore(kind);
    });
    after(() => store?.close());
    const em = () => store.storage.fork();

    test('a code is six digits and the database holds neither it nor a plain hash of it', async () => {
      const clock = new TestClock('2026-06-01T10:00:00.000Z');
      const code = await createOtp(em(), clock, sealer, { userId: 'u-otp', email: 'Otp@Example.com', purpose: 'verify_otp' });
      assert.match(code, /^\d{6}$/);
      const row = await em().findOneOrFail(Otp, { userId: 'u-otp' });
      assert.equal(row.email, 'otp@example.com');
      assert.equal(row.attempts, 0);
      assert.equal(row.expiresAt.toISOString(), '2026-06-01T10:05:00.000Z');
      const sha = (text: string) => createHash('sha256').update(text).digest('hex');
      const stored = JSON.stringify(await store.storage.fork().getConnection().execute('select * from otps'));
      for (const leak of [code, sha(code), sha(`${row.id}:${code}`)]) assert.ok(!stored.includes(leak), `stored rows contain ${leak}`);
    });

    test('the right code works once', async () => {
      const clock = new TestClock('2026-06-02T10:00:00.000Z');
      const code = await createOtp(em(), clock, sealer, { phone: ' +15550002222 ', userId: 'u-phone', purpose: 'forgot_password' });
      const row = await consumeOtp(em(), { clock, sealer, limits }, { phone: '+15550002222', purpose: 'forgot_password', code });
      assert.equal(row.userId, 'u-phone');
      assert.equal(row.usedAt?.toISOString(), '2026-06-02T10:00:00.000Z');
      await assert.rejects(consumeOtp(em(), { clock, sealer, limits }, { phone: '+15550002222', purpose: 'forgot_password', code }), invalidOtp);
    });

    test('a code expires', async () => {
      const clock = new TestClock('2026-06-03T10:00:00.000Z');
      const code = await createOtp(em(), clock, sealer, { email: 'exp@example.com', purpose: 'verify_otp', ttlSeconds: 30 });
      clock.advance(30);
      await assert.rejects(consumeOtp(em(), { clock, sealer, limits }, { email: 'exp@example.com', purpose: 'verify_otp', code }), invalidOtp);
    });

    test(`${MAX_OTP_ATTEMPTS} wrong codes retire the code, and the count is stored`, async () => {
      const clock = new TestClock('2026-06-04T10:00:00.000Z');
      const code = await createOtp(em(), clock, sealer, { email: 'guess@example.com', purpose: 'verify_otp' });
      const check = (c: string) => consumeOtp(em(), { clock, sealer, limits }, { email: 'guess@example.com', purpose: 'verify_otp', code: c });
      for (let i = 1; i < MAX_OTP_ATTEMPTS; i++) {
        await assert.rejects(check(wrong(code)), invalidOtp);
        assert.equal((await em().findOneOrFail(Otp, { email: 'guess@example.com' })).attempts, i);
      }
      await assert.rejects(check(wrong(code)), exhausted);
      await assert.rejects(check(code), exhausted, 'even the right code is refused now');
      assert.equal((await em().findOneOrFail(Otp, { email: 'guess@example.com' })).usedAt, null);
    });

    test('concurrent guesses cannot exceed the attempt limit', async () => {
      const clock = new TestClock('2026-06-05T10:00:00.000Z');
      const code = await createOtp(em(), clock, sealer, { email: 'burst@example.com', purpose: 'verify_otp' });
      await Promise.allSettled(
        Array.from({ length: 20 }, () => consumeOtp(em(), { clock, sealer, limits }, { email: 'burst@example.com', purpose: 'verify_otp', code: wrong(code) })),
      );
      const row = await em().findOneOrFail(Otp, { email: 'burst@example.com' });
      assert.ok(row.attempts <= MAX_OTP_ATTEMPTS, `attempts ${row.attempts}`);
    });

    test('a code serves only its purpose and its owner', async () => {
      const clock = new TestClock('2026-06-06T10:00:00.000Z');
      const code = await createOtp(em(), clock, sealer, { email: 'iso@example.com', purpose: 'verify_otp' });
      await assert.rejects(consumeOtp(em(), { clock, sealer, limits }, { email: 'iso@example.com', purpose: 'forgot_password', code }), invalidOtp);
      await assert.rejects(consumeOtp(em(), { clock, sealer, limits }, { email: 'other@example.com', purpose: 'verify_otp', code }), invalidOtp);
      assert.ok(await consumeOtp(em(), { clock, sealer, limits }, { email: 'ISO@example.com', purpose: 'verify_otp', code }));
    });

    test('a new code replaces the earlier one', async () => {
      const clock = new TestClock('2026-06-07T10:00:00.000Z');
      const first = await createOtp(em(), clock, sealer, { email: 'again@example.com', purpose: 'verify_otp' });
      clock.advance(1);
      let second = await createOtp(em(), clock, sealer, { email: 'again@example.com', purpose: 'verify_otp' });
      while (second === first) second = await createOtp(em(), clock, sealer, { email: 'again@example.com', purpose: 'verify_otp' });
      await assert.rejects(consumeOtp(em(), { clock, sealer, limits }, { email: 'again@example.com', purpose: 'verify_otp', code: first }), invalidOtp);
      assert.ok(await consumeOtp(em(), { clock, sealer, limits }, { email: 'again@example.com', purpose: 'verify_otp', code: second }));
    });

    test('a code sealed under another key cannot be used', async () => {
      const clock = new TestClock('2026-06-08T10:00:00.000Z');
      const code = await createOtp(em(), clock, sealer, { email: 'rotated@example.com', purpose: 'verify_otp' });
      const otherSealer = createSealer({ encryptionKey: 'another-key', jwtSecret: undefined });
      await assert.rejects(consumeOtp(em(), { clock, sealer: otherSealer, limits }, { email: 'rotated@example.com', purpose: 'verify_otp', code }), invalidOtp);
    });

    test('checking a code inside a transaction is refused (a rollback would undo the count)', async () => {
      const clock = new TestClock('2026-06-09T10:00:00.000Z');
      const code = await createOtp(em(), clock, sealer, { email: 'tx@example.com', purpose: 'verify_otp' });
      await assert.rejects(
        store.storage.fork().transactional((tx) => consumeOtp(tx, { clock, sealer, limits }, { email: 'tx@example.com', purpose: 'verify_otp', code })),
        /must run outside a transaction/,
      );
      assert.equal((await em().findOneOrFail(Otp, { email: 'tx@example.com' })).attempts, 0);
    });

    test('deleteOtpsFor removes a user\'s codes', async () => {
      const clock = new TestClock('2026-06-10T10:00:00.000Z');
      await createOtp(em(), clock, sealer, { userId: 'u-del', email: 'del@example.com', purpose: 'verify_otp' });
      await createOtp(em(), clock, sealer, { userId: 'u-del', phone: '+15550003333', purpose: 'forgot_password' });
      await createOtp(em(), clock, sealer, { userId: 'u-keep', purpose: 'verify_otp' });
      assert.equal(await deleteOtpsFor(em(), { userId: 'u-del' }), 2);
      assert.equal(await em().count(Otp, { userId: 'u-keep' }), 1);
      await assert.rejects(deleteOtpsFor(em(), {}), /needs a userId/);
      await assert.rejects(createOtp(em(), clock, sealer, { purpose: 'verify_otp' }), /needs a userId, an email or a phone/);
    });
  });
}
