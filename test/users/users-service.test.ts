/**
 * The users service on real SQLite, PostgreSQL and MariaDB (docs/api-overview.md#resources-and-fields;
 * docs/api-overview.md#versioning): normalised emails,
 * service-side uniqueness of email and phone under 50 concurrent creations, moving and releasing claims,
 * lookups that skip deactivated accounts, and purge.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import { systemClock } from '../../server/kernel/deps.ts';
import {
  User,
  IdentityClaim,
  createUser,
  findUserByEmail,
  findUserById,
  findUserByPhone,
  purgeUser,
  updateUserContact,
  claimId,
  DUPLICATE_USER_MESSAGE,
  type NewUserData,
} from '../../server/modules/users/index.ts';
import { openUsersStorage, REQUIRED_KINDS, type UsersTestStorage } from './support.ts';

const base = (extra: Partial<NewUserData>): NewUserData => ({ signupMethods: ['basic_auth'], roles: ['user'], ...extra });

function isDuplicate(err: unknown): boolean {
  return err instanceof AppError && err.kind === 'already_exists' && err.message === DUPLICATE_USER_MESSAGE;
}

async function rejectsWith(promise: Promise<unknown>, kind: AppError['kind'], message?: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    assert.equal(err.kind, kind);
    if (message) assert.match(err.message, message);
    return true;
  });
}

for (const kind of REQUIRED_KINDS) {
  describe(`users service on ${kind}`, () => {
    let t: UsersTestStorage;
    before(async () => {
      t = await openUsersStorage(kind);
    });
    after(() => t?.close());

    const fork = () => t.storage.fork();

    test('50 concurrent creations with one email in mixed case leave exactly one user', async () => {
      const variants = ['race@example.com', ' Race@Example.com', 'RACE@EXAMPLE.COM ', 'rAcE@eXaMpLe.CoM'];
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => {
          const data = base({ email: variants[i % variants.length], givenName: `racer ${i}` });
          // Half run inside an outer transaction, as a mutation handler does; half on a plain fork.
          return i % 2 === 0
            ? fork().transactional((tx) => createUser(tx, systemClock, data))
            : createUser(fork(), systemClock, data);
        }),
      );
      const created = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r) => r.status === 'rejected');
      assert.equal(created.length, 1, `refusals: ${refused.map((r) => String((r as PromiseRejectedResult).reason)).slice(0, 3)}`);
      assert.equal(refused.length, 49);
      for (const r of refused) assert.ok(isDuplicate((r as PromiseRejectedResult).reason), String((r as PromiseRejectedResult).reason));
      const em = fork();
      const rows = await em.find(User, { email: 'race@example.com' });
      assert.equal(rows.length, 1);
      assert.equal(await em.count(User, { givenName: { $like: 'racer %' } }), 1);
      const claims = await em.find(IdentityClaim, { userId: rows[0]!.id });
      assert.deepEqual(claims.map((c) => c.id), ['email:race@example.com']);
    });

    test('emails are stored trimmed and lower-cased and found in any case', async () => {
      const user = await createUser(fork(), systemClock, base({ email: '  Mixed.Case@Example.ORG ' }));
      assert.equal(user.email, 'mixed.case@example.org');
      const found = await findUserByEmail(fork(), 'MIXED.case@example.org  ');
      assert.equal(found?.id, user.id);
      assert.equal(await findUserByEmail(fork(), 'other@example.org'), null);
      assert.equal(await findUserByEmail(fork(), '   '), null);
      await rejectsWith(createUser(fork(), systemClock, base({ email: 'mixed.case@EXAMPLE.org' })), 'already_exists', /^user with given email already exists$/);
    });

    test('phone numbers are unique (trimmed), also under concurrency, with the same message', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => createUser(fork(), systemClock, base({ phoneNumber: i % 2 ? ' +15550000001' : '+15550000001 ', signupMethods: ['mobile_basic_auth'] }))),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results) if (r.status === 'rejected') assert.ok(isDuplicate(r.reason), String(r.reason));
      const user = await findUserByPhone(fork(), '+15550000001');
      assert.ok(user);
      assert.equal(user.phoneNumber, '+15550000001');
      assert.equal(user.email, null);
      // Email and phone claims are separate namespaces: an email equal to a phone string does not clash.
      assert.notEqual(claimId('email', '+15550000001'), claimId('phone', '+15550000001'));
      // One user with both identities claims both; either one taken refuses the whole creation.
      await createUser(fork(), systemClock, base({ email: 'both@example.com', phoneNumber: '+15550000002' }));
      await rejectsWith(createUser(fork(), systemClock, base({ email: 'fresh@example.com', phoneNumber: '+15550000002' })), 'already_exists');
      assert.equal(await findUserByEmail(fork(), 'fresh@example.com'), null, 'a refused creation leaves no row');
      assert.equal(await fork().count(IdentityClaim, { id: 'email:fresh@example.com' }), 0, 'nor a claim');
    });

    test('malformed identities are invalid_argument, and one identity is required', async () => {
      await rejectsWith(createUser(fork(), systemClock, base({ phoneNumber: '12345' })), 'invalid_argument', /at least 10 characters/);
      await rejectsWith(createUser(fork(), systemClock, base({ phoneNumber: '1'.repeat(40) })), 'invalid_argument', /at most 32/);
      await rejectsWith(createUser(fork(), systemClock, base({ email: 'not-an-email' })), 'invalid_argument', /invalid email/);
      await rejectsWith(createUser(fork(), systemClock, base({ email: `${'a'.repeat(250)}@x.io` })), 'invalid_argument', /invalid email/);
      await rejectsWith(createUser(fork(), systemClock, base({})), 'invalid_argument', /email address or a phone number/);
    });

    test('a very long address gets a hashed claim key that still refuses duplicates', async () => {
      const long = `${'l'.repeat(240)}@example.com`;
      assert.ok(claimId('email', long).length <= 255);
      await createUser(fork(), systemClock, base({ email: long }));
      await rejectsWith(createUser(fork(), systemClock, base({ email: long.toUpperCase() })), 'already_exists');
    });

    test('updateUserContact moves the claim: the new address is taken, the old one is free again', async () => {
      const alice = await createUser(fork(), systemClock, base({ email: 'alice@move.test', emailVerifiedAt: new Date() }));
      const bob = await createUser(fork(), systemClock, base({ email: 'bob@move.test' }));
      const em = fork();
      const a = (await findUserById(em, alice.id))!;
      await rejectsWith(updateUserContact(em, a, { email: 'BOB@move.test' }), 'already_exists', /^user with given email already exists$/);
      const em2 = fork();
      const a2 = (await findUserById(em2, alice.id))!;
      assert.equal(a2.email, 'alice@move.test', 'a refused move changes nothing');
      const moved = await updateUserContact(em2, a2, { email: ' Alice.New@Move.test' });
      assert.equal(moved.email, 'alice.new@move.test');
      assert.equal(moved.emailVerifiedAt, null, 'a new address is not verified');
      // The caller's unit of work keeps working with the same entity after the move.
      a2.givenName = 'Alice';
      await em2.flush();
      const reread = (await findUserByEmail(fork(), 'alice.new@move.test'))!;
      assert.equal(reread.id, alice.id);
      assert.equal(reread.givenName, 'Alice');
      assert.equal(await findUserByEmail(fork(), 'alice@move.test'), null);
      // The old address is released: another user can move to it or sign up with it.
      const em3 = fork();
      await updateUserContact(em3, (await findUserById(em3, bob.id))!, { email: 'alice@move.test' });
      await createUser(fork(), systemClock, base({ email: 'bob@move.test' }));
      const claims = await fork().find(IdentityClaim, { userId: alice.id });
      assert.deepEqual(claims.map((c) => c.id), ['email:alice.new@move.test']);
    });

    test('updateUserContact on phone numbers, and removing one identity only while another remains', async () => {
      const carol = await createUser(fork(), systemClock, base({ email: 'carol@phone.test', phoneNumber: '+15551110000' }));
      await createUser(fork(), systemClock, base({ phoneNumber: '+15551119999' }));
      const em = fork();
      const c = (await findUserById(em, carol.id))!;
      await rejectsWith(updateUserContact(em, c, { phone: '+15551119999' }), 'already_exists');
      await updateUserContact(em, c, { phone: ' +15551112222 ' });
      assert.equal((await findUserByPhone(fork(), '+15551112222'))?.id, carol.id);
      await createUser(fork(), systemClock, base({ phoneNumber: '+15551110000' }));
      await updateUserContact(em, c, { phone: null });
      assert.equal((await findUserById(fork(), carol.id))?.phoneNumber, null);
      await rejectsWith(updateUserContact(em, c, { email: null }), 'invalid_argument');
      // Setting the current value again is a no-op, not a clash with itself.
      await updateUserContact(em, c, { email: 'CAROL@phone.test' });
    });

    test('deactivated accounts are not found by sign-in lookups unless asked for', async () => {
      const dave = await createUser(fork(), systemClock, base({ email: 'dave@deactivated.test', phoneNumber: '+15552220000' }));
      const em = fork();
      const d = (await findUserById(em, dave.id))!;
      d.deactivatedAt = new Date();
      await em.flush();
      assert.equal(await findUserByEmail(fork(), 'dave@deactivated.test'), null);
      assert.equal(await findUserByPhone(fork(), '+15552220000'), null);
      assert.equal(await findUserById(fork(), dave.id), null);
      assert.equal((await findUserByEmail(fork(), 'DAVE@deactivated.test', { includeDeactivated: true }))?.id, dave.id);
      assert.equal((await findUserById(fork(), dave.id, { includeDeactivated: true }))?.id, dave.id);
      // A deactivated account keeps its claims: nobody else can take the address.
      await rejectsWith(createUser(fork(), systemClock, base({ email: 'dave@deactivated.test' })), 'already_exists');
    });

    test('purgeUser deletes the user and its claims, freeing the identities', async () => {
      const erin = await createUser(fork(), systemClock, base({ email: 'erin@purge.test', phoneNumber: '+15553330000' }));
      assert.equal(await purgeUser(fork(), erin.id), true);
      assert.equal(await findUserById(fork(), erin.id, { includeDeactivated: true }), null);
      assert.equal(await fork().count(IdentityClaim, { userId: erin.id }), 0);
      assert.equal(await purgeUser(fork(), erin.id), false);
      await createUser(fork(), systemClock, base({ email: 'erin@purge.test', phoneNumber: '+15553330000' }));
    });

    test('a stale claim (its user gone) is taken over; a user row without a claim still holds its address', async () => {
      const frank = await createUser(fork(), systemClock, base({ email: 'frank@stale.test' }));
      await fork().nativeDelete(User, { id: frank.id });
      const again = await createUser(fork(), systemClock, base({ email: 'frank@stale.test' }));
      assert.deepEqual((await fork().find(IdentityClaim, { userId: again.id })).map((c) => c.id), ['email:frank@stale.test']);

      const em = fork();
      const now = new Date();
      em.create(User, {
        id: 'seeded-without-claim',
        email: 'seeded@stale.test',
        signupMethods: 'basic_auth',
        roles: ['user'],
        createdAt: now,
        updatedAt: now,
      });
      await em.flush();
      await rejectsWith(createUser(fork(), systemClock, base({ email: 'Seeded@stale.test' })), 'already_exists');
    });
  });
}
