/**
 * findSignInAccount (modules/users/sign-in-lookup.ts), the bound-statement read of every password login, on
 * real SQLite, PostgreSQL and MariaDB: it finds exactly what findUserByEmail/findUserByPhone find (the
 * normalised address, never a deactivated account), hands back a managed row whose every property equals
 * em.findOne's (dates, JSON, booleans converted alike), and leaves em.findOne to answer inside a
 * transaction and for a unit of work that already holds a changed row.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../server/kernel/deps.ts';
import { User, createUser, findSignInAccount, findUserByEmail, type NewUserData, type UserRow } from '../../server/modules/users/index.ts';
import { openUsersStorage, REQUIRED_KINDS, type UsersTestStorage } from './support.ts';

const base = (extra: Partial<NewUserData>): NewUserData => ({ signupMethods: ['basic_auth'], roles: ['user'], ...extra });

/** Every entity property, as em.findOne answers them (Dates as their time, the rest as JSON values). */
function properties(row: UserRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(User.meta.properties)) {
    const value = (row as unknown as Record<string, unknown>)[name];
    out[name] = value instanceof Date ? `Date(${value.getTime()})` : value;
  }
  return out;
}

for (const kind of REQUIRED_KINDS) {
  describe(`findSignInAccount on ${kind}`, () => {
    let t: UsersTestStorage;
    let ada: UserRow;
    before(async () => {
      t = await openUsersStorage(kind);
      ada = await createUser(t.storage.fork(), systemClock, {
        ...base({ email: 'ada@lookup.test', phoneNumber: '+15553330000', passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$x$y' }),
        givenName: 'Ada',
        appData: { team: 'engines', level: 3 },
        isMultiFactorAuthEnabled: true,
        emailVerifiedAt: new Date(Date.UTC(2026, 3, 1, 12, 30, 15, 123)),
        emailVerifiedVia: 'link',
      });
    });
    after(() => t?.close());

    test('finds by email in any letter case and by phone number, the same row em.findOne finds', async () => {
      const expected = properties((await findUserByEmail(t.storage.fork(), 'ada@lookup.test'))!);
      const em = t.storage.fork();
      const byEmail = await findSignInAccount(t.storage, em, { email: ' ADA@Lookup.Test ' });
      assert.ok(byEmail);
      assert.deepEqual(properties(byEmail), expected);
      assert.equal(expected.isMultiFactorAuthEnabled, true);
      assert.deepEqual(expected.roles, ['user']);
      assert.deepEqual(expected.appData, { team: 'engines', level: 3 });
      // Managed by the unit of work, as em.findOne's row is: a change to it is flushed.
      assert.equal(em.getUnitOfWork().getById(User, ada.id), byEmail);
      const byPhone = await findSignInAccount(t.storage, t.storage.fork(), { phone_number: '+15553330000' });
      assert.equal(byPhone?.id, ada.id);
    });

    test('an unknown, malformed or deactivated account is not found', async () => {
      assert.equal(await findSignInAccount(t.storage, t.storage.fork(), { email: 'nobody@lookup.test' }), null);
      assert.equal(await findSignInAccount(t.storage, t.storage.fork(), { email: '   ' }), null);
      assert.equal(await findSignInAccount(t.storage, t.storage.fork(), { phone_number: '+15559990000' }), null);
      const gone = await createUser(t.storage.fork(), systemClock, base({ email: 'gone@lookup.test', phoneNumber: '+15554440000' }));
      const em = t.storage.fork();
      const row = await em.findOneOrFail(User, { id: gone.id });
      row.deactivatedAt = new Date();
      await em.flush();
      assert.equal(await findSignInAccount(t.storage, t.storage.fork(), { email: 'gone@lookup.test' }), null);
      assert.equal(await findSignInAccount(t.storage, t.storage.fork(), { phone_number: '+15554440000' }), null);
    });

    test('inside a transaction it reads on the transaction and sees its uncommitted row', async () => {
      await t.storage.fork().transactional(async (tx) => {
        const fresh = await createUser(tx, systemClock, base({ email: 'tx@lookup.test' }));
        const found = await findSignInAccount(t.storage, tx, { email: 'tx@lookup.test' });
        assert.equal(found?.id, fresh.id);
      });
    });

    test('a unit of work holding a changed row keeps the change (em.findOne answers, no refresh)', async () => {
      const em = t.storage.fork();
      const held = await em.findOneOrFail(User, { id: ada.id });
      held.givenName = 'Not flushed';
      const found = await findSignInAccount(t.storage, em, { email: 'ada@lookup.test' });
      assert.equal(found, held);
      assert.equal(found?.givenName, 'Not flushed');
    });
  });
}
