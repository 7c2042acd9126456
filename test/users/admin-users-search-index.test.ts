/**
 * The users search through its trigram pre-filter (modules/users/user-search.ts, storage migration 0004) on
 * SQLite, PostgreSQL and MariaDB (which has none and scans): the index follows every write of a user
 * (create, update, delete) through its triggers, the answer is still decided field by field (a query that
 * spans two fields matches nothing), short queries and deep pages answer as before, and a server started
 * again on the same database (schema update over the index's tables) searches the same.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { User, createUser, purgeUser } from '../../server/modules/users/index.ts';
import { REQUIRED_KINDS, steppingClock } from './support.ts';

for (const kind of REQUIRED_KINDS) {
  describe(`users search index on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    const ids: string[] = [];

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer(db.flags);
      const clock = steppingClock();
      for (let i = 0; i < 25; i++) {
        const user = await createUser(server.app.deps.storage.fork(), clock, {
          signupMethods: ['basic_auth'],
          roles: ['user'],
          email: `member${String(i).padStart(2, '0')}@scale.example`,
          givenName: i === 0 ? 'Ann' : 'Zed',
          familyName: i === 0 ? 'Smith' : 'Quill',
        });
        ids.push(user.id);
      }
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    async function search(query: string | undefined, pagination?: object): Promise<{ users: any[]; pagination: any }> {
      const res = await fetch(`${server.baseUrl}/v1/admin/users`, {
        method: 'POST',
        headers: { 'x-service-admin-secret': ADMIN_SECRET, origin: server.baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ query, pagination }),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as { users: any[]; pagination: any };
    }

    async function updateUser(body: object): Promise<void> {
      const res = await fetch(`${server.baseUrl}/v1/admin/update_user`, {
        method: 'POST',
        headers: { 'x-service-admin-secret': ADMIN_SECRET, origin: server.baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200);
    }

    test('a search reads the index, and each field is compared on its own', async () => {
      assert.deepEqual((await search('MEMBER0')).pagination.total, 10);
      assert.deepEqual((await search('ann')).users.map((u) => u.id), [ids[0]]);
      assert.equal((await search('annsmith')).pagination.total, 0, 'given and family name are separate fields');
      assert.equal((await search('Quill Zed')).pagination.total, 0);
      assert.equal((await search('@scale.example')).pagination.total, 25);
    });

    test('queries shorter than a trigram and deep pages answer as before', async () => {
      assert.equal((await search('Q')).pagination.total, 24);
      assert.equal((await search('mi')).pagination.total, 1);
      const page = await search('member', { limit: 4, page: 6 });
      assert.deepEqual(page.pagination, { limit: 4, page: 6, offset: 20, total: 25 });
      assert.deepEqual(page.users.map((u) => u.id), ids.slice(1, 5).reverse());
      const unfiltered = await search(undefined, { limit: 10, page: 3 });
      assert.deepEqual(unfiltered.users.map((u) => u.id), ids.slice(0, 5).reverse());
      // In the first half: read while the total is counted.
      const early = await search(undefined, { limit: 5, page: 2 });
      assert.deepEqual(early.pagination, { limit: 5, page: 2, offset: 5, total: 25 });
      assert.deepEqual(early.users.map((u) => u.id), ids.slice(15, 20).reverse());
    });

    test('the index follows updates and deletes of a user', async () => {
      await updateUser({ id: ids[1], email: 'renamed.person@elsewhere.example', given_name: 'Xavier' });
      assert.deepEqual((await search('renamed.PERSON')).users.map((u) => u.id), [ids[1]]);
      assert.deepEqual((await search('xavier')).users.map((u) => u.id), [ids[1]]);
      assert.equal((await search('member01@')).pagination.total, 0, 'the old address is gone from the index');
      assert.equal(await purgeUser(server.app.deps.storage.fork(), ids[2]!), true);
      assert.equal((await search('member02@')).pagination.total, 0);
      assert.equal((await search('@scale.example')).pagination.total, 23);
    });

    test('a frequent query (a thousand candidates and more) walks the newest-first order, with the same answer', async () => {
      const start = Date.UTC(2027, 0, 1);
      const rows = Array.from({ length: 1200 }, (_, i) => ({
        id: `walk-${String(i).padStart(5, '0')}`,
        email: `bulk${i}@walk.example`,
        signupMethods: 'basic_auth',
        roles: ['user'],
        createdAt: new Date(start + i * 1000),
        updatedAt: new Date(start + i * 1000),
      }));
      await server.app.deps.storage.fork().insertMany(User, rows);
      const newestFirst = rows.map((row) => row.id).reverse();
      const first = await search('WALK.example');
      assert.deepEqual(first.pagination, { limit: 10, page: 1, offset: 0, total: 1200 });
      assert.deepEqual(first.users.map((u) => u.id), newestFirst.slice(0, 10));
      const deep = await search('walk.example', { limit: 10, page: 100 });
      assert.equal(deep.pagination.total, 1200);
      assert.deepEqual(deep.users.map((u) => u.id), newestFirst.slice(990, 1000));
      assert.equal((await search('bulk11')).pagination.total, 111, 'bulk11, bulk110-119 and bulk1100-1199');
    });

    test('a server started again on the same database searches the same', async () => {
      await server.close();
      server = await startServer(db.flags);
      assert.deepEqual((await search('xavier')).users.map((u) => u.id), [ids[1]]);
      assert.equal((await search('@scale.example')).pagination.total, 23);
    });
  });
}
