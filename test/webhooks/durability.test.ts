/**
 * Webhooks never lose an event (docs/events.md), with real server processes: an event committed
 * before a SIGKILL is delivered once after the restart, and two instances on one PostgreSQL database share
 * a burst of 1,000 events with every one delivered exactly once (counted by X-Service-Delivery).
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, SECRETS } from '../sea/executable.ts';
import { createTestDatabase } from '../support/databases.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import { ENTITIES } from '../../server/modules/entities.ts';
import { EventOutbox, recordEvent } from '../../server/modules/events/index.ts';
import { WebhookDelivery } from '../../server/modules/webhooks/index.ts';
import { startReceiver, validSignature } from './receiver.ts';
import { ALLOW_PRIVATE, PASSWORD } from './support.ts';
import { adminCall, spawnServer, stopServer, type ServerProcess } from '../support/server-process.ts';

describe('webhook durability across processes', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('an event committed before kill -9 is delivered exactly once after the restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-webhook-kill-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // The receiver is down while the event is committed: its port is reserved but nothing listens yet.
    const port = await freePort();
    let first: ServerProcess | undefined = await spawnServer(dir, ALLOW_PRIVATE);
    cleanups.push(() => (first ? stopServer(first) : undefined));
    await adminCall(first, 'add_webhook', { event_name: 'user.access_revoked', endpoint: `http://127.0.0.1:${port}/hook`, enabled: true });
    const user = await signedUpUser(first, { email: 'killed@example.com', password: PASSWORD });
    await adminCall(first, 'revoke_access', { user_id: user.userId });
    first.child.kill('SIGKILL');
    assert.equal(await first.exited, 'SIGKILL');
    first = undefined;

    const sink = await startReceiver(undefined, port);
    cleanups.push(() => sink.close());
    const second = await spawnServer(dir, ALLOW_PRIVATE);
    cleanups.push(() => stopServer(second));
    await sink.waitFor(1, 15_000);
    // Long enough for a second delivery to show up if one were coming (the poll runs every second).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(sink.received.length, 1);
    const [got] = sink.received;
    assert.equal(got!.json.event_name, 'user.access_revoked');
    assert.equal(got!.json.user.id, user.userId);
    assert.ok(validSignature(SECRETS.clientSecret, got!.body, got!.headers['x-service-signature']));
  });

  test('two instances on one PostgreSQL database deliver each of 1,000 events exactly once', async () => {
    const db = await createTestDatabase('postgres');
    cleanups.push(() => db.cleanup());
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-webhook-pair-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const sink = await startReceiver();
    cleanups.push(() => sink.close());
    const a = await spawnServer(dir, [...db.flags, ...ALLOW_PRIVATE]);
    cleanups.push(() => stopServer(a));
    const b = await spawnServer(dir, [...db.flags, ...ALLOW_PRIVATE]);
    cleanups.push(() => stopServer(b));
    await adminCall(a, 'add_webhook', { event_name: 'user.login', endpoint: sink.url, enabled: true });

    const storage = await openStorage(configFor(db.flags), ENTITIES, silentLogger);
    cleanups.push(() => storage.close());
    const count = 1000;
    await storage.fork().transactional(async (em) => {
      for (let i = 0; i < count; i++) recordEvent(em, 'user.login', { user: { id: `user-${i}` }, auth_recipe: 'basic_auth' }, { now: () => new Date() });
    });
    await sink.waitFor(count, 60_000);
    // Both instances have drained: no event waits and no delivery is pending.
    for (let settled = false; !settled; ) {
      const em = storage.fork();
      settled = (await em.count(EventOutbox, { deliveredAt: null })) === 0 && (await em.count(WebhookDelivery, {})) === 0;
      if (!settled) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const deliveries = new Set(sink.received.map((r) => r.headers['x-service-delivery']));
    const users = new Set(sink.received.map((r) => r.json.user.id));
    assert.equal(sink.received.length, count, 'no event was sent twice');
    assert.equal(deliveries.size, count, 'one delivery id per event');
    assert.equal(users.size, count, 'every event arrived');
  });
});
