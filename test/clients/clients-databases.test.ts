/**
 * The client registry on every database kind the storage layer supports (storage/types.ts conventions: JSON
 * lists, a unique client_id, millisecond datetimes for the grace window): create, read by client_id, update
 * the lists, rotate inside the grace window, verify old and new secrets, refuse a second client with the
 * same client_id at the database, delete.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../support/admin-client.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { restClient } from '../support/rest-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { Client, verifyClientSecret } from '../../server/modules/clients/index.ts';
import { isUniqueViolation } from '../../server/storage/errors.ts';


for (const kind of testDatabaseKinds()) {
  describe(`client registry on ${kind}`, () => {
    const clock = new TestClock();
    let db: TestDatabase;
    let server: TestServer;
    const admin = (op: string, body: Record<string, unknown>) => restClient(server).post(`/v1/admin/${op}`, body, ADMIN);
    const verify = (clientId: string, secret: string) =>
      verifyClientSecret(server.app.deps.storage.fork(), clientId, secret, clock.now()).then((c) => c?.clientId);

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer([...db.flags, '--client-secret-rotation-grace', '60'], { clock });
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('lifecycle: create, read, update lists, rotate with grace, delete', async () => {
      const created = await admin('create_client', { name: 'db client', allowed_scopes: ['x:read'], redirect_uris: ['https://a.example.com/cb'] });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const { client, client_secret: first } = created.body;
      assert.deepEqual((await admin('client', { client_id: client.client_id })).body, client);

      const updated = await admin('update_client', { id: client.id, allowed_scopes: ['x:read', 'x:write'], redirect_uris: ['https://b.example.com/cb'] });
      assert.deepEqual(updated.body.allowed_scopes, ['x:read', 'x:write']);
      assert.deepEqual((await admin('client', { id: client.id })).body.redirect_uris, ['https://b.example.com/cb']);

      const second = (await admin('rotate_client_secret', { id: client.id })).body.client_secret;
      assert.equal(await verify(client.client_id, first), client.client_id, 'old secret inside the grace window');
      assert.equal(await verify(client.client_id, second), client.client_id);
      clock.advance(61);
      assert.equal(await verify(client.client_id, first), undefined, 'old secret after the grace window');
      assert.equal(await verify(client.client_id, second), client.client_id);

      const em = server.app.deps.storage.fork();
      const row = await em.findOneOrFail(Client, { id: client.id });
      em.create(Client, { ...row, id: crypto.randomUUID() });
      await assert.rejects(em.flush(), (err: unknown) => isUniqueViolation(err), 'client_id is unique at the database');

      assert.equal((await admin('delete_client', { id: client.id })).status, 200);
      assert.equal(await verify(client.client_id, second), undefined);
    });
  });
}
