/**
 * Uniqueness of email is the service's job (docs/api-overview.md#versioning): 50 concurrent
 * signups with one email (in mixed case) leave exactly one user, on SQLite, PostgreSQL and MariaDB (and
 * MongoDB when TEST_MONGODB_URL is set). Real HTTP, real databases.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET } from '../support/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../support/databases.ts';
import { restClient } from '../support/rest-client.ts';

const PASSWORD = 'Conc!urr3nt';

describe('50 concurrent signups with one email', () => {
  for (const kind of testDatabaseKinds()) {
    test(`leave exactly one user on ${kind}`, async () => {
      const db = await createTestDatabase(kind);
      const server = await startServer(db.flags);
      try {
        const api = restClient(server);
        const variants = ['race@example.com', 'Race@Example.com', 'RACE@EXAMPLE.COM', ' race@example.com '];
        const replies = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            api.post('/v1/signup', { email: variants[i % variants.length], password: PASSWORD, confirm_password: PASSWORD }),
          ),
        );
        const ok = replies.filter((r) => r.status === 200);
        const duplicates = replies.filter((r) => r.body?.message === 'user with given email already exists');
        assert.equal(ok.length, 1, `expected one success, got ${ok.length}: ${JSON.stringify(replies.filter((r) => r.status !== 200 && !duplicates.includes(r)).map((r) => r.body))}`);
        assert.equal(duplicates.length, 49);
        const users = await api.post('/v1/admin/users', { query: 'race@example.com' }, { 'x-service-admin-secret': ADMIN_SECRET });
        assert.equal(users.body.pagination.total, 1);
        assert.equal(users.body.users[0].email, 'race@example.com');
      } finally {
        await server.close();
        await db.cleanup();
      }
    });
  }
});
