/**
 * Verification tokens (docs/operations.md): random, single use, expiring, stored only as hashes. Runs on
 * SQLite, PostgreSQL and MariaDB.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AppError } from '../../server/kernel/errors.ts';
import {
  VerificationRequest,
  consumeVerification,
  createVerification,
  deleteVerificationsFor,
} from '../../server/modules/verification/index.ts';
import { openTestStore, STORE_KINDS, TestClock, type TestStore } from './store.ts';

const invalidToken = (err: unknown) => err instanceof AppError && err.kind === 'invalid_argument' && err.message === 'invalid or expired token';

for (const kind of STORE_KINDS) {
  describe(`verification tokens on ${kind}`, () => {
    let store: TestStore;
    before(async () => {
      store = await openTestStore(kind);
    });
    after(() => store?.close());
    const em = () => store.storage.fork();

    test('the raw token is answered once and only its SHA-256 is stored', async () => {
      const clock = new TestClock('2026-05-01T10:00:00.000Z');
      const token = await createVerification(em(), clock, {
        identifier: 'basic_auth_signup',
        email: '  Ann@Example.COM ',
        userId: 'user-1',
        redirectUri: 'https://app.example.com/welcome',
        ttlSeconds: 1800,
      });
      assert.match(token, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
      const rows = await em().find(VerificationRequest, { userId: 'user-1' });
      assert.equal(rows.length, 1);
      const row = rows[0]!;
      assert.equal(row.tokenHash, createHash('sha256').update(token).digest('hex'));
      assert.equal(row.email, 'ann@example.com');
      assert.equal(row.identifier, 'basic_auth_signup');
      assert.equal(row.redirectUri, 'https://app.example.com/welcome');
      assert.equal(row.expiresAt.toISOString(), '2026-05-01T10:30:00.000Z');
      assert.equal(row.usedAt, null);
      assert.ok(row.nonce.length > 0);
      const stored = await store.storage.fork().getConnection().execute('select * from verification_requests');
      assert.ok(stored.length >= 1);
      assert.ok(!JSON.stringify(stored).includes(token), 'no column holds the raw token');
    });

    test('a token works once; the second use fails with the one message', async () => {
      const clock = new TestClock('2026-05-02T10:00:00.000Z');
      const token = await createVerification(em(), clock, { identifier: 'magic_link_login', email: 'once@example.com', ttlSeconds: 600 });
      const row = await consumeVerification(em(), clock, token, ['magic_link_login', 'basic_auth_signup']);
      assert.equal(row.email, 'once@example.com');
      assert.equal(row.usedAt?.toISOString(), '2026-05-02T10:00:00.000Z');
      await assert.rejects(consumeVerification(em(), clock, token, ['magic_link_login']), invalidToken);
    });

    test('a token expires after its ttl (injected clock)', async () => {
      const clock = new TestClock('2026-05-03T10:00:00.000Z');
      const late = await createVerification(em(), clock, { identifier: 'forgot_password', email: 'late@example.com', ttlSeconds: 60 });
      const onTime = await createVerification(em(), clock, { identifier: 'forgot_password', email: 'ontime@example.com', ttlSeconds: 60 });
      clock.advance(59);
      assert.equal((await consumeVerification(em(), clock, onTime, ['forgot_password'])).email, 'ontime@example.com');
      clock.advance(1);
      await assert.rejects(consumeVerification(em(), clock, late, ['forgot_password']), invalidToken);
    });

    test('unknown tokens, empty tokens and the wrong identifier all fail alike', async () => {
      const clock = new TestClock('2026-05-04T10:00:00.000Z');
      const token = await createVerification(em(), clock, { identifier: 'update_email', email: 'new@example.com', ttlSeconds: 600 });
      await assert.rejects(consumeVerification(em(), clock, 'not-a-token', ['update_email']), invalidToken);
      await assert.rejects(consumeVerification(em(), clock, '', ['update_email']), invalidToken);
      await assert.rejects(consumeVerification(em(), clock, token, ['forgot_password']), invalidToken);
      await assert.rejects(consumeVerification(em(), clock, token, []), invalidToken);
      // The refusals did not spend it.
      assert.equal((await consumeVerification(em(), clock, token, ['update_email'])).email, 'new@example.com');
    });

    test('of concurrent uses of one token exactly one succeeds', async () => {
      const clock = new TestClock('2026-05-05T10:00:00.000Z');
      const token = await createVerification(em(), clock, { identifier: 'invite_member', email: 'race@example.com', ttlSeconds: 600 });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => store.storage.fork().transactional((tx) => consumeVerification(tx, clock, token, ['invite_member']))),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results) if (r.status === 'rejected') assert.ok(invalidToken(r.reason), String(r.reason));
    });

    test('a use inside a transaction that rolls back gives the token back', async () => {
      const clock = new TestClock('2026-05-06T10:00:00.000Z');
      const token = await createVerification(em(), clock, { identifier: 'basic_auth_signup', email: 'retry@example.com', ttlSeconds: 600 });
      await assert.rejects(
        store.storage.fork().transactional(async (tx) => {
          await consumeVerification(tx, clock, token, ['basic_auth_signup']);
          throw new Error('a later step failed');
        }),
        /a later step failed/,
      );
      assert.equal((await consumeVerification(em(), clock, token, ['basic_auth_signup'])).email, 'retry@example.com');
    });

    test('a new request replaces the earlier one of the same email and identifier', async () => {
      const clock = new TestClock('2026-05-07T10:00:00.000Z');
      const first = await createVerification(em(), clock, { identifier: 'magic_link_login', email: 'twice@example.com', ttlSeconds: 600 });
      const other = await createVerification(em(), clock, { identifier: 'forgot_password', email: 'twice@example.com', ttlSeconds: 600 });
      const second = await createVerification(em(), clock, { identifier: 'magic_link_login', email: 'TWICE@example.com', ttlSeconds: 600 });
      await assert.rejects(consumeVerification(em(), clock, first, ['magic_link_login']), invalidToken);
      assert.ok(await consumeVerification(em(), clock, second, ['magic_link_login']));
      assert.ok(await consumeVerification(em(), clock, other, ['forgot_password']), 'another identifier is untouched');
    });

    test('an identifier outside the six email events is refused', async () => {
      const clock = new TestClock('2026-05-08T10:00:00.000Z');
      await assert.rejects(
        createVerification(em(), clock, { identifier: 'reset_everything', email: 'x@example.com', ttlSeconds: 60 }),
        (err: unknown) => err instanceof AppError && err.kind === 'invalid_argument' && /identifier/.test(err.message),
      );
    });

    test('deleteVerificationsFor removes a user\'s or an address\'s requests and nothing else', async () => {
      const clock = new TestClock('2026-05-09T10:00:00.000Z');
      await createVerification(em(), clock, { identifier: 'basic_auth_signup', email: 'gone@example.com', userId: 'user-gone', ttlSeconds: 600 });
      await createVerification(em(), clock, { identifier: 'forgot_password', email: 'gone@example.com', userId: 'user-gone', ttlSeconds: 600 });
      await createVerification(em(), clock, { identifier: 'update_email', email: 'moved@example.com', userId: 'user-gone', ttlSeconds: 600 });
      const kept = await createVerification(em(), clock, { identifier: 'basic_auth_signup', email: 'kept@example.com', userId: 'user-kept', ttlSeconds: 600 });
      assert.equal(await deleteVerificationsFor(em(), { email: 'GONE@example.com' }), 2);
      assert.equal(await deleteVerificationsFor(em(), { userId: 'user-gone' }), 1);
      assert.equal(await em().count(VerificationRequest, { userId: 'user-gone' }), 0);
      assert.ok(await consumeVerification(em(), clock, kept, ['basic_auth_signup']));
      await assert.rejects(deleteVerificationsFor(em(), {}), /needs an email or a userId/);
    });
  });
}
