/**
 * Admin user operations over REST with the admin header (docs/operations.md: /v1/admin/users,
 * /v1/admin/user, /v1/admin/update_user) on a real server over SQLite, PostgreSQL and MariaDB: search
 * without regard to letter case, newest first, pagination totals, lookups and updates through the claims.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { createUser, type NewUserData } from '../../server/modules/users/index.ts';
import { REQUIRED_KINDS, steppingClock } from './support.ts';

interface Reply {
  status: number;
  body: any;
}

const SEED: Partial<NewUserData>[] = [
  { email: 'ann.smith@corp.example', givenName: 'Ann', familyName: 'Smith' },
  { email: 'bo@corp.example', givenName: 'Bo', familyName: 'Smithers', nickname: 'bobby' },
  { email: 'cy@other.example', givenName: 'Cy', familyName: 'Jones' },
  { phoneNumber: '+15557770001', givenName: 'Dora', nickname: 'dora-the-explorer' },
  { email: 'ed@other.example', givenName: 'Ed', familyName: 'Brown', nickname: 'BigEd' },
  { email: 'fay@corp.example', givenName: 'Fay' },
  { email: 'gus@corp.example', givenName: 'Gus' },
  { email: 'hal@corp.example', givenName: 'Hal' },
  { email: 'ivy@corp.example', givenName: 'Ivy' },
  { email: 'jo@corp.example', givenName: 'Jo' },
  { email: 'kit@corp.example', givenName: 'Kit' },
  { email: 'lu_50%@corp.example', givenName: 'Lu' },
];

for (const kind of REQUIRED_KINDS) {
  describe(`admin user operations over REST on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    const ids: string[] = [];

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer([...db.flags, '--roles', 'user,editor,admin', '--protected-roles', 'admin']);
      const clock = steppingClock();
      for (const data of SEED) {
        const em = server.app.deps.storage.fork();
        const user = await createUser(em, clock, { signupMethods: ['basic_auth'], roles: ['user'], passwordHash: '$argon2id$not-a-real-hash', ...data });
        ids.push(user.id);
      }
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    async function admin(op: string, body: unknown, headers: Record<string, string> = { 'x-service-admin-secret': ADMIN_SECRET }): Promise<Reply> {
      const res = await fetch(`${server.baseUrl}/v1/admin/${op}`, {
        method: 'POST',
        headers: { ...headers, origin: server.baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    }

    test('every admin user operation refuses a caller without admin credentials', async () => {
      for (const op of ['users', 'user', 'update_user']) {
        const reply = await admin(op, { id: ids[0] }, {});
        assert.equal(reply.status, 401, op);
        assert.equal(reply.body.code, 'unauthenticated');
      }
    });

    test('users: newest first, default limit 10, pagination totals, and no private field', async () => {
      const first = await admin('users', {});
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.pagination, { limit: 10, page: 1, offset: 0, total: 12 });
      assert.deepEqual(first.body.users.map((u: any) => u.id), ids.slice(-10).reverse());
      const second = await admin('users', { pagination: { page: 2 } });
      assert.deepEqual(second.body.pagination, { limit: 10, page: 2, offset: 10, total: 12 });
      assert.deepEqual(second.body.users.map((u: any) => u.id), ids.slice(0, 2).reverse());
      const small = await admin('users', { pagination: { limit: 5, page: 3 } });
      assert.deepEqual(small.body.pagination, { limit: 5, page: 3, offset: 10, total: 12 });
      assert.equal(small.body.users.length, 2);
      const capped = await admin('users', { pagination: { limit: 1000 } });
      assert.equal(capped.body.pagination.limit, 100);
      assert.equal(capped.body.users.length, 12);
      const beyond = await admin('users', { pagination: { page: 9 } });
      assert.deepEqual(beyond.body.users, []);
      assert.equal(beyond.body.pagination.total, 12);
      const user = first.body.users.find((u: any) => u.email === 'kit@corp.example');
      assert.equal(user.given_name, 'Kit');
      assert.equal(user.email_verified, false);
      assert.deepEqual(user.roles, ['user']);
      const text = JSON.stringify(first.body);
      assert.ok(!text.includes('argon2') && !/password/i.test(text), 'no password material in the listing');
    });

    test('users: query is a case-insensitive substring of id, email, given, family and nick name', async () => {
      // Every query holds a character that is not a hex digit, so it cannot match inside a random UUID id.
      const search = async (query: string, pagination?: object) => {
        const reply = await admin('users', { query, pagination });
        assert.equal(reply.status, 200);
        return reply.body as { users: any[]; pagination: any };
      };
      const smith = await search('SMITH');
      assert.deepEqual(smith.users.map((u) => u.given_name), ['Bo', 'Ann'], 'family name, newest first');
      assert.equal(smith.pagination.total, 2);
      assert.deepEqual((await search('Other.EXAMPLE')).users.map((u) => u.given_name), ['Ed', 'Cy'], 'email');
      assert.deepEqual((await search('bIgEd')).users.map((u) => u.given_name), ['Ed'], 'nickname');
      assert.deepEqual((await search('DOR')).users.map((u) => u.given_name), ['Dora'], 'given name and nickname, once');
      const byId = await search(ids[2]!.slice(4, 20).toUpperCase());
      assert.deepEqual(byId.users.map((u) => u.id), [ids[2]], 'id');
      // LIKE wildcards in the query match themselves only.
      assert.deepEqual((await search('_50%')).users.map((u) => u.given_name), ['Lu']);
      assert.equal((await search('%')).pagination.total, 1);
      assert.equal((await search('nobody-matches-this')).pagination.total, 0);
      // Whitespace-only query means no filter.
      assert.equal((await search('   ')).pagination.total, 12);
      const paged = await search('corp', { limit: 3, page: 2 });
      assert.deepEqual(paged.pagination, { limit: 3, page: 2, offset: 3, total: 9 });
      assert.equal(paged.users.length, 3);
    });

    test('user: by id or by email in any case; exactly one is required; unknown is not_found', async () => {
      const byId = await admin('user', { id: ids[0] });
      assert.equal(byId.status, 200);
      assert.equal(byId.body.email, 'ann.smith@corp.example');
      const byEmail = await admin('user', { email: '  Ann.Smith@CORP.example' });
      assert.equal(byEmail.body.id, ids[0]);
      for (const body of [{}, { id: ids[0], email: 'ann.smith@corp.example' }, { id: '  ' }]) {
        const reply = await admin('user', body);
        assert.equal(reply.status, 400, JSON.stringify(body));
        assert.equal(reply.body.code, 'invalid_argument');
      }
      const missing = await admin('user', { email: 'ghost@corp.example' });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'not_found');
      assert.equal((await admin('user', { id: 'no-such-id' })).status, 404);
    });

    test('update_user: profile fields, roles within --roles, verification flags, app data', async () => {
      const reply = await admin('update_user', {
        id: ids[5],
        given_name: 'Faye',
        family_name: 'Doe',
        nickname: 'ff',
        gender: 'female',
        birthdate: '1990-01-02',
        picture: 'https://img.example/f.png',
        roles: ['editor', 'admin'],
        email_verified: true,
        is_multi_factor_auth_enabled: true,
        app_data: { plan: 'pro', seats: 3 },
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.given_name, 'Faye');
      assert.equal(reply.body.family_name, 'Doe');
      assert.equal(reply.body.gender, 'female');
      assert.deepEqual(reply.body.roles, ['editor', 'admin']);
      assert.equal(reply.body.email_verified, true);
      assert.equal(reply.body.is_multi_factor_auth_enabled, true);
      assert.deepEqual(reply.body.app_data, { plan: 'pro', seats: 3 });
      assert.ok(reply.body.updated_at >= reply.body.created_at);
      const reread = await admin('user', { id: ids[5] });
      assert.deepEqual(reread.body, reply.body, 'the update is stored');

      const cleared = await admin('update_user', { id: ids[5], nickname: '', email_verified: false });
      assert.equal(cleared.body.nickname, undefined);
      assert.equal(cleared.body.email_verified, false);
      assert.equal(cleared.body.given_name, 'Faye', 'fields not given are kept');

      const badRole = await admin('update_user', { id: ids[5], roles: ['root'], given_name: 'Nope' });
      assert.equal(badRole.status, 400);
      assert.equal(badRole.body.code, 'invalid_argument');
      assert.equal((await admin('user', { id: ids[5] })).body.given_name, 'Faye', 'a refused update changes nothing');
      const noPhone = await admin('update_user', { id: ids[5], phone_number_verified: true });
      assert.equal(noPhone.status, 400);
      const missing = await admin('update_user', { id: 'no-such-id', given_name: 'x' });
      assert.equal(missing.status, 404);
    });

    test('update_user: email and phone changes go through the claims', async () => {
      const taken = await admin('update_user', { id: ids[6], email: 'HAL@corp.example' });
      assert.equal(taken.status, 409);
      assert.deepEqual([taken.body.code, taken.body.message], ['already_exists', 'user with given email already exists']);
      const phoneTaken = await admin('update_user', { id: ids[6], phone_number: '+15557770001' });
      assert.equal(phoneTaken.status, 409);
      assert.equal(phoneTaken.body.message, 'user with given email already exists');
      assert.equal((await admin('update_user', { id: ids[6], phone_number: '123' })).status, 400);
      assert.equal((await admin('update_user', { id: ids[6], email: 'not-an-email' })).status, 400);

      const moved = await admin('update_user', { id: ids[6], email: ' Gus.New@Corp.example ', phone_number: '+15557779999', email_verified: true });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.email, 'gus.new@corp.example');
      assert.equal(moved.body.email_verified, true, 'set in the same call');
      assert.equal(moved.body.phone_number, '+15557779999');
      assert.equal(moved.body.phone_number_verified, false);
      assert.equal((await admin('user', { email: 'gus@corp.example' })).status, 404);
      assert.equal((await admin('user', { email: 'GUS.NEW@corp.example' })).body.id, ids[6]);
      // The old address is free: another user may move to it.
      const reuse = await admin('update_user', { id: ids[7], email: 'gus@corp.example' });
      assert.equal(reuse.status, 200);
      assert.equal(reuse.body.email_verified, false, 'a changed address is unverified unless the call says otherwise');
    });
  });
}
