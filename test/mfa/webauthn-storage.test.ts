/**
 * Passkeys and WebAuthn ceremonies on SQLite, PostgreSQL and MariaDB (server/modules/webauthn): a credential
 * id registers once across accounts; the 32-bit unsigned sign count survives the round trip and moves only
 * from the value read (compare-and-set); a ceremony challenge is stored as a digest, taken by one of two
 * racing requests, never after its five minutes or as another ceremony kind; deleting the last passkey takes
 * `webauthn` off the user's factors, and deleteAllPasskeys removes a user's passkeys and no one else's.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import { User } from '../../server/modules/users/user.entity.ts';
import { WebauthnCredential } from '../../server/modules/webauthn/webauthn-credential.entity.ts';
import { deleteAllPasskeys, deletePasskey, passkeyByCredentialId, passkeysOf, recordPasskeyUse, savePasskey, type NewPasskey } from '../../server/modules/webauthn/passkeys.ts';
import { CEREMONY_SECONDS, issueCeremony, takeCeremony } from '../../server/modules/webauthn/ceremony-challenge.ts';
import { openTestDatabaseStorage, type TestDatabaseStorage } from '../support/test-storage.ts';
import { STORE_KINDS, TestClock } from '../verification/store.ts';

const passkey = (userId: string, credentialId: string): NewPasskey => ({
  userId, credentialId, publicKey: new Uint8Array([1, 2, 3]), signCount: 0, transports: ['internal'], deviceType: 'multiDevice', backedUp: true, name: 'key',
});

for (const kind of STORE_KINDS) {
  describe(`passkeys on ${kind}`, () => {
    let store: TestDatabaseStorage;
    const clock = new TestClock('2026-07-01T10:00:00.000Z');
    before(async () => {
      store = await openTestDatabaseStorage(kind);
      const em = store.storage.fork();
      const now = clock.now();
      for (const id of ['u-a', 'u-b']) em.create(User, { id, email: `${id}@example.com`, signupMethods: 'basic_auth', roles: ['user'], createdAt: now, updatedAt: now });
      await em.flush();
    });
    after(() => store?.close());
    const em = () => store.storage.fork();

    test('a credential id registers once, to one account; the user lists webauthn while a passkey is left', async () => {
      const saved = await savePasskey(em(), clock, passkey('u-a', 'cred-1'));
      await assert.rejects(savePasskey(em(), clock, passkey('u-b', 'cred-1')), (err: unknown) => err instanceof AppError && err.kind === 'already_exists');
      const raced = await Promise.allSettled([savePasskey(em(), clock, passkey('u-b', 'cred-2')), savePasskey(em(), clock, passkey('u-a', 'cred-2'))]);
      assert.equal(raced.filter((r) => r.status === 'fulfilled').length, 1, 'one of two racing registrations of one id');
      const lost = raced.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      assert.ok(lost.reason instanceof AppError && lost.reason.kind === 'already_exists', String(lost.reason));
      assert.deepEqual((await em().findOneOrFail(User, { id: 'u-a' })).enrolledMfaMethods, ['webauthn']);
      const row = await passkeyByCredentialId(em(), 'cred-1');
      assert.equal(row?.id, saved.id);
      assert.deepEqual(row?.transports, ['internal']);
      assert.equal(row?.backedUp, true);
    });

    test('the sign count keeps 32 unsigned bits and moves only from the value read', async () => {
      const saved = await savePasskey(em(), clock, { ...passkey('u-b', 'cred-count'), signCount: 4_000_000_000 });
      const read = (await passkeyByCredentialId(em(), 'cred-count'))!;
      assert.equal(read.signCount, 4_000_000_000);
      assert.equal(typeof read.signCount, 'number');
      const both = await Promise.all([recordPasskeyUse(em(), clock, read, 4_000_000_001, true), recordPasskeyUse(em(), clock, read, 4_000_000_002, true)]);
      assert.deepEqual(both.filter(Boolean).length, 1, 'two uses verified against one count: one counts');
      const after = (await em().findOneOrFail(WebauthnCredential, { id: saved.id }));
      assert.ok(after.signCount === 4_000_000_001 || after.signCount === 4_000_000_002);
      assert.ok(after.lastUsedAt);
    });

    test('a ceremony is taken once, within its five minutes, as its own kind; only its digest is stored', async () => {
      const challenge = 'Y2hhbGxlbmdlLW9uZS1vZi10aGlydHktdHdvLWJ5dGVzLi4';
      await issueCeremony(em(), clock, { challenge, kind: 'authentication', userVerification: 'required' });
      const dump = JSON.stringify(await em().getConnection().execute('select * from webauthn_challenges'));
      assert.ok(!dump.includes(challenge), 'the challenge is stored in clear');
      assert.equal(await takeCeremony(em(), clock, challenge, 'registration'), undefined, 'another kind');
      assert.equal(await takeCeremony(em(), clock, challenge, 'authentication'), undefined, 'the wrong-kind attempt spent it');

      const raced = 'cmFjZWQtY2hhbGxlbmdlLW9mLXRoaXJ0eS10d28tYnl0ZXM';
      await issueCeremony(em(), clock, { challenge: raced, kind: 'authentication', userId: 'u-a', userVerification: 'required' });
      const takes = await Promise.all([takeCeremony(em(), clock, raced, 'authentication'), takeCeremony(em(), clock, raced, 'authentication')]);
      assert.equal(takes.filter(Boolean).length, 1, 'one of two racing requests');
      assert.equal(takes.find(Boolean)!.userId, 'u-a');

      const late = 'bGF0ZS1jaGFsbGVuZ2Utb2YtdGhpcnR5LXR3by1ieXRlcy4u';
      await issueCeremony(em(), clock, { challenge: late, kind: 'registration', userId: 'u-b', userVerification: 'preferred' });
      clock.advance(CEREMONY_SECONDS);
      assert.equal(await takeCeremony(em(), clock, late, 'registration'), undefined, 'expired');

      const first = 'Zmlyc3QtcmVnaXN0cmF0aW9uLWNoYWxsZW5nZS0zMi1ieXQ';
      const second = 'c2Vjb25kLXJlZ2lzdHJhdGlvbi1jaGFsbGVuZ2UtMzItYnk';
      await issueCeremony(em(), clock, { challenge: first, kind: 'registration', userId: 'u-b', userVerification: 'preferred' });
      await issueCeremony(em(), clock, { challenge: second, kind: 'registration', userId: 'u-b', userVerification: 'preferred' });
      assert.equal(await takeCeremony(em(), clock, first, 'registration'), undefined, 'a newer registration of the user replaces it');
      assert.ok(await takeCeremony(em(), clock, second, 'registration'));
    });

    test("deleting: own only, the last one ends the enrolment, deleteAllPasskeys touches one user's", async () => {
      const own = (await passkeysOf(em(), 'u-a'))[0]!;
      await assert.rejects(deletePasskey(em(), clock, 'u-b', own.id), (err: unknown) => err instanceof AppError && err.kind === 'not_found');
      for (const row of await passkeysOf(em(), 'u-a')) await deletePasskey(em(), clock, 'u-a', row.id);
      assert.deepEqual((await em().findOneOrFail(User, { id: 'u-a' })).enrolledMfaMethods, []);
      const bCount = (await passkeysOf(em(), 'u-b')).length;
      assert.ok(bCount > 0);
      await savePasskey(em(), clock, passkey('u-a', 'cred-again'));
      assert.equal(await deleteAllPasskeys(em(), 'u-a'), 1);
      assert.equal((await passkeysOf(em(), 'u-b')).length, bCount);
    });
  });
}
