/**
 * Two instances on one PostgreSQL database (server/modules/webhooks/fleet-broadcast.ts, subscribed-events.ts):
 * a webhook added on instance A is announced over the fleet's LISTEN/NOTIFY broadcast, so instance B, whose
 * view said nobody listens to the event, wakes at the commit of the next such event instead of leaving it
 * to its poll; an event B recorded before it heard is handed over at B's next fan-out. Each arrives once.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { recordEvent } from '../../server/modules/events/index.ts';
import { addWebhook, startWebhookServer, ALLOW_PRIVATE } from './support.ts';

/** B's safety-net poll: far longer than a woken delivery takes, short enough for the test to wait for. */
const B_POLL_MS = 4000;
const PROMPT_MS = 1500;

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('webhook view across two instances on one PostgreSQL database', () => {
  let db: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let sink: Receiver;
  before(async () => {
    db = await createTestDatabase('postgres');
    a = await startWebhookServer([...db.flags, ...ALLOW_PRIVATE], { webhooks: { pollMs: 60_000, timeoutMs: 2000 } });
    b = await startWebhookServer([...db.flags, ...ALLOW_PRIVATE], { webhooks: { pollMs: B_POLL_MS, timeoutMs: 2000 } });
    await a.app.webhooks.idle();
    await b.app.webhooks.idle();
    sink = await startReceiver();
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await sink?.close();
    await db?.cleanup();
  });

  async function recordOnB(id: string): Promise<number> {
    const { storage, clock } = b.app.deps;
    await storage.fork().transactional(async (em) => {
      recordEvent(em, 'group.updated', { group: { id } }, clock);
    });
    return Date.now();
  }

  test('B skips events nobody listens to, hears of A\'s webhook, then wakes at its commits', async () => {
    const worker = b.app.webhooks;
    const quiet = worker.stats();
    await recordOnB('before-any-webhook');
    assert.equal(worker.stats().skippedWakes, quiet.skippedWakes + 1, 'no webhook yet: B leaves the event to its poll');

    const heard = worker.stats().remoteChanges;
    await addWebhook(a, { event_name: 'group.updated', endpoint: sink.url });
    await until(() => worker.stats().remoteChanges > heard, 3000, 'B to hear of the new webhook');
    const skipped = worker.stats().skippedWakes;
    const committed = await recordOnB('after-broadcast');
    const arrived = () => sink.received.some((r) => r.json.group.id === 'after-broadcast');
    await until(arrived, PROMPT_MS, 'the event recorded after the broadcast');
    assert.ok(Date.now() - committed < PROMPT_MS, 'woken by the commit, well before B\'s poll');
    assert.equal(worker.stats().skippedWakes, skipped, 'B no longer skips the event');
  });

  test('an event B recorded while it knew of no webhook is handed over by B\'s next fan-out, once', async () => {
    // The first test's first event was left for the poll, so no fan-out had stamped it (A polls once a
    // minute): the next fan-out on B (woken by a commit, or its poll at the latest) hands it to the webhook
    // that exists by then, as any event not yet fanned out when a webhook is added.
    await sink.waitFor(2, B_POLL_MS + 4000);
    await b.app.webhooks.idle();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = sink.received.map((r) => r.json.group.id).sort();
    assert.deepEqual(ids, ['after-broadcast', 'before-any-webhook']);
    assert.equal(new Set(sink.received.map((r) => r.headers['x-service-delivery'])).size, 2);
  });
});
