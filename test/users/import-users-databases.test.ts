/**
 * `_import_users` on each SQL database (the imported_hash_keys table and the users.imported_id column come
 * from the schema update): a streamed file of more than one batch, with bcrypt and Firebase hashes, imports
 * once and is unchanged the second time; an imported user signs in and is rehashed to argon2id.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import bcryptjs from 'bcryptjs';
import { ADMIN_SECRET, startServer, type TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { User } from '../../server/modules/users/index.ts';
import { EventOutbox } from '../../server/modules/events/index.ts';

const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];
const USERS = 1100;
const FIREBASE = {
  params: { signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==', salt_separator: 'Bw==', rounds: 8, mem_cost: 14 },
  hash: { algorithm: 'firebase-scrypt', hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==', salt: '42xEC+ixf3L2lw==' },
  password: 'user1password',
};

for (const kind of KINDS) {
  describe(`import_users (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer(db.flags);
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    const importFile = async (body: string) => {
      const res = await fetch(`${server.baseUrl}/v1/admin/import_users`, {
        method: 'POST',
        headers: { origin: server.baseUrl, 'content-type': 'application/x-ndjson', 'x-service-admin-secret': ADMIN_SECRET },
        body,
      });
      assert.equal(res.status, 200);
      return res.json() as Promise<Record<string, any>>;
    };
    const login = (email: string, password: string) =>
      fetch(`${server.baseUrl}/v1/login`, { method: 'POST', headers: { origin: server.baseUrl, 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });

    test('a file of several batches imports once, then is unchanged; imported hashes sign in', async () => {
      const bcrypt = await bcryptjs.hash('bcrypt-password', 8);
      const lines = [
        JSON.stringify({ firebase_scrypt: FIREBASE.params }),
        JSON.stringify({ email: 'firebase@db.example', password_hash: FIREBASE.hash }),
        ...Array.from({ length: USERS }, (_, i) => JSON.stringify({ email: `User-${i}@DB.example`, external_id: `x${i}`, given_name: `U${i}`, roles: ['user'], password_hash: bcrypt })),
      ];
      const first = await importFile(lines.join('\n'));
      assert.deepEqual([first.created, first.unchanged, first.failed], [USERS + 1, 0, 0], JSON.stringify(first.errors));
      const em = server.app.deps.storage.fork();
      assert.equal(await em.count(User, { email: { $like: '%@db.example' } }), USERS + 1);
      assert.equal(await em.count(EventOutbox, { eventName: 'user.created' }), USERS + 1);
      const second = await importFile(lines.join('\n'));
      assert.deepEqual([second.created, second.unchanged, second.failed], [0, USERS + 1, 0]);
      assert.equal(await server.app.deps.storage.fork().count(User, {}), USERS + 1);

      assert.equal((await login('user-7@db.example', 'wrong-password')).status, 401);
      assert.equal((await login('user-7@db.example', 'bcrypt-password')).status, 200);
      assert.equal((await login('firebase@db.example', FIREBASE.password)).status, 200);
      const fresh = server.app.deps.storage.fork();
      assert.match((await fresh.findOneOrFail(User, { email: 'user-7@db.example' })).passwordHash!, /^\$argon2id\$/);
      assert.match((await fresh.findOneOrFail(User, { email: 'firebase@db.example' })).passwordHash!, /^\$argon2id\$/);
      assert.equal((await fresh.findOneOrFail(User, { email: 'user-8@db.example' })).passwordHash, bcrypt, 'the others keep theirs until they sign in');
    });
  });
}
