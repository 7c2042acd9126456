/**
 * Registered-client authentication, client_credentials and introspection on PostgreSQL and MariaDB (the
 * SQLite runs are client-auth.test.ts and introspect.test.ts): the cache is per ORM whatever the driver, the
 * rotation grace window ends on the test clock, deactivation is refused at once.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { TestClock } from '../support/test-clock.ts';
import { admin, assertInvalidClient, basic, clientCredentials, oauthPost } from './client-auth-support.ts';

const GRACE_SECONDS = 300;

for (const kind of testDatabaseKinds().filter((k) => k !== 'sqlite')) {
  describe(`registered clients on ${kind}`, () => {
    const clock = new TestClock();
    let database: TestDatabase;
    let server: TestServer;
    before(async () => {
      database = await createTestDatabase(kind);
      server = await startServer([...database.flags, '--client-secret-rotation-grace', String(GRACE_SECONDS)], { clock });
    });
    after(async () => {
      await server?.close();
      await database?.cleanup();
    });

    test('client_credentials, introspection, rotation grace and deactivation', async () => {
      const registry = admin(server);
      const client = await registry.create(['jobs:read']);
      const issued = await clientCredentials(server, basic(client));
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      const seen = await oauthPost(server, '/oauth/introspect', { token: issued.body.access_token }, basic(client));
      assert.equal(seen.body.active, true);
      assert.equal(seen.body.client_id, client.clientId);

      const fresh = await registry.rotate(client);
      assert.equal((await clientCredentials(server, basic(client))).status, 200, 'previous secret inside the grace window');
      clock.advance(GRACE_SECONDS + 1);
      assertInvalidClient(await clientCredentials(server, basic(client)), true);
      const current = { clientId: client.clientId, secret: fresh };
      assert.equal((await clientCredentials(server, basic(current))).status, 200);

      await registry.setActive(client, false);
      assertInvalidClient(await clientCredentials(server, basic(current)), true);
    });
  });
}
