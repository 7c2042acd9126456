/**
 * Webhooks, deliveries and logs on SQLite, PostgreSQL and MariaDB: registry round trip, one delivery with
 * its log, and a response above MariaDB's 64 KiB TEXT limit stored whole up to the 1 MiB cap.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import type { TestServer } from '../support/app.ts';
import { recordEvent } from '../../server/modules/events/index.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_PRIVATE, addWebhook, admin, startWebhookServer } from './support.ts';

const BIG = 'x'.repeat(1024 * 1024 + 300 * 1024);

for (const kind of ['sqlite', 'postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`webhook storage on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let sink: Receiver;
    before(async () => {
      db = await createTestDatabase(kind);
      server = await startWebhookServer([...db.flags, ...ALLOW_PRIVATE]);
      sink = await startReceiver(() => ({ status: 200, body: BIG }));
    });
    after(async () => {
      await server?.close();
      await sink?.close();
      await db?.cleanup();
    });

    test('a webhook, its delivery and a 1 MiB-capped log round-trip', async () => {
      const id = await addWebhook(server, { event_name: 'user.created', endpoint: sink.url, headers: { 'X-A': 'b' } });
      const read = await admin(server).ok('webhook', { id });
      assert.deepEqual(read.headers, { 'X-A': 'b' });
      await server.app.deps.storage.fork().transactional(async (em) => {
        recordEvent(em, 'user.created', { user: { id: `u-${kind}`, email: 'ünïcode@example.com' } }, server.app.deps.clock);
      });
      await sink.waitFor(1);
      await server.app.webhooks.idle();
      const logs = await admin(server).ok('webhook_logs', { webhook_id: id });
      assert.equal(logs.pagination.total, 1);
      const [log] = logs.webhook_logs;
      assert.equal(log.http_status, 200);
      assert.equal(log.response.length, 1024 * 1024, 'the answer is cut at 1 MiB and stored whole');
      assert.equal(log.request, sink.received[0]!.body);
      assert.equal(JSON.parse(log.request).user.email, 'ünïcode@example.com');
      await admin(server).ok('delete_webhook', { id });
      assert.equal((await admin(server).ok('webhook_logs', { webhook_id: id })).pagination.total, 0);
    });
  });
}
