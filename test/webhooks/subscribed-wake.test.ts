/**
 * What a commit costs the webhook worker (server/modules/webhooks/subscribed-events.ts, worker.ts): a commit
 * whose events no enabled webhook listens to wakes nothing (no fan-out, no claim, no delivery row; the poll
 * stamps the events later), a fan-out that created no delivery runs no claim, and a burst of commits shares
 * one fan-out and one claim. Delivery is unchanged: every event with a subscriber arrives once.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../support/app.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { EventOutbox, recordEvent } from '../../server/modules/events/index.ts';
import { WebhookDelivery } from '../../server/modules/webhooks/index.ts';
import { addWebhook, admin, startWebhookServer, ALLOW_PRIVATE } from './support.ts';

/** Long enough that nothing in a test is the poll's doing. */
const POLL_MS = 60_000;
/** Wide enough that a burst of commits on a loaded machine falls in one window. */
const COALESCE_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook wake only for subscribed events', () => {
  let server: TestServer;
  const receivers: Receiver[] = [];
  before(async () => {
    server = await startWebhookServer(ALLOW_PRIVATE, { webhooks: { pollMs: POLL_MS, retryBaseMs: 200, retryMaxMs: 400, timeoutMs: 2000, wakeCoalesceMs: COALESCE_MS } });
    await server.app.webhooks.idle();
  });
  after(async () => {
    await server.close();
    for (const r of receivers) await r.close();
  });

  async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  }

  async function record(name: string, id: string): Promise<void> {
    const { storage, clock } = server.app.deps;
    await storage.fork().transactional(async (em) => {
      recordEvent(em, name, { group: { id } }, clock);
    });
  }

  test('events nobody subscribes to run no fan-out and no claim, and leave no delivery row', async () => {
    const worker = server.app.webhooks;
    const before = worker.stats();
    for (let i = 0; i < 5; i++) await record('user.deleted', `unheard-${i}`);
    await sleep(COALESCE_MS + 200);
    const after = worker.stats();
    assert.equal(after.skippedWakes - before.skippedWakes, 5, 'each commit was looked at and left alone');
    assert.equal(after.fanOuts, before.fanOuts, 'no fan-out ran');
    assert.equal(after.claims, before.claims, 'no claim ran');
    const em = server.app.deps.storage.fork();
    assert.equal(await em.count(WebhookDelivery, {}), 0);
    // The events wait for the poll, which stamps them as handed over, still without a delivery.
    assert.equal(await em.count(EventOutbox, { eventName: 'user.deleted', deliveredAt: null }), 5);
    worker.wake();
    await worker.idle();
    assert.equal(await em.count(EventOutbox, { eventName: 'user.deleted', deliveredAt: null }), 0);
    assert.equal(await em.count(WebhookDelivery, {}), 0);
  });

  test('a webhook added by an operation is delivered the next commit at once; a fan-out with no delivery claims nothing', async () => {
    const sink = await receiver();
    const worker = server.app.webhooks;
    const id = await addWebhook(server, { event_name: 'group.updated', endpoint: sink.url });
    await record('group.updated', 'heard');
    const committed = Date.now();
    await sink.waitFor(1, 1500 + COALESCE_MS);
    assert.ok(Date.now() - committed < 1500 + COALESCE_MS, 'woken by the commit, not the one-minute poll');
    await worker.idle();

    // Deleted: the view may still name the event until it is read again, so the commit wakes a fan-out,
    // which finds no webhook and creates no delivery; no claim follows.
    await admin(server).ok('delete_webhook', { id });
    const before = worker.stats();
    await record('group.updated', 'after-delete');
    await sleep(COALESCE_MS + 300);
    const after = worker.stats();
    assert.equal(after.claims, before.claims, 'no claim after an empty fan-out');
    assert.equal(await server.app.deps.storage.fork().count(WebhookDelivery, {}), 0);
    assert.equal(sink.received.length, 1);
  });

  test('a burst of commits shares one fan-out and one claim, and every event arrives once', async () => {
    const sink = await receiver();
    const worker = server.app.webhooks;
    await addWebhook(server, { event_name: 'group.created', endpoint: sink.url });
    await worker.idle();
    const before = worker.stats();
    const count = 20;
    const started = Date.now();
    await Promise.all(Array.from({ length: count }, (_, i) => record('group.created', `burst-${i}`)));
    const spanMs = Date.now() - started;
    await sink.waitFor(count, 5000);
    const after = worker.stats();
    const rounds = { fanOuts: after.fanOuts - before.fanOuts, claims: after.claims - before.claims };
    // All commits inside one window: exactly one round; a machine so loaded that they were not still
    // shares rounds between commits.
    if (spanMs < COALESCE_MS) {
      assert.deepEqual(rounds, { fanOuts: 1, claims: 1 }, `commits spanned ${spanMs} ms`);
      assert.equal(after.coalescedWakes - before.coalescedWakes, count - 1);
    } else assert.ok(rounds.fanOuts <= Math.ceil(spanMs / COALESCE_MS) + 1 && rounds.fanOuts < count, JSON.stringify(rounds));
    await worker.idle();
    const ids = sink.received.map((r) => r.json.group.id).sort();
    assert.deepEqual(ids, Array.from({ length: count }, (_, i) => `burst-${i}`).sort());
    assert.equal(new Set(sink.received.map((r) => r.headers['x-service-delivery'])).size, count);
  });
});
