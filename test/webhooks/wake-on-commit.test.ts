/**
 * The delivery worker is woken by the commit of a transaction that recorded an event, not by its poll
 * (server/modules/webhooks/commit-wake.ts): with a one-minute poll, a delivery starts well under a second
 * after the commit, whether the event was recorded by an operation, in a transaction or outside one; an
 * event rolled back wakes nothing and is never sent. A retry is sent by this instance's own timer with the
 * same X-Service-Delivery id (docs/events.md#the-delivery).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../support/app.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { recordEvent } from '../../server/modules/events/index.ts';
import { addWebhook, admin, signUp, startWebhookServer, ALLOW_PRIVATE } from './support.ts';

const POLL_MS = 60_000;
/** Well under the poll, with room for a loaded machine. */
const PROMPT_MS = 1500;

describe('webhook wake on commit', () => {
  let server: TestServer;
  const receivers: Receiver[] = [];
  before(async () => {
    server = await startWebhookServer(ALLOW_PRIVATE, { webhooks: { pollMs: POLL_MS, retryBaseMs: 200, retryMaxMs: 400, timeoutMs: 2000 } });
    // The start's own pass has looked for work; from here on only commits (and the retry timer) wake it.
    await server.app.webhooks.idle();
  });
  after(async () => {
    await server.close();
    for (const r of receivers) await r.close();
  });

  async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  }

  test('an operation that records an event wakes the worker at its commit', async () => {
    const sink = await receiver();
    await addWebhook(server, { event_name: 'user.access_revoked', endpoint: sink.url });
    const user = await signUp(server, 'woken@example.com');
    await admin(server).ok('revoke_access', { user_id: user.id });
    const committed = Date.now();
    await sink.waitFor(1, PROMPT_MS);
    assert.ok(Date.now() - committed < PROMPT_MS, `delivered ${Date.now() - committed} ms after the commit`);
  });

  test('an event recorded in a transaction or outside one wakes the worker; a rolled-back one never arrives', async () => {
    const sink = await receiver();
    await addWebhook(server, { event_name: 'group.created', endpoint: sink.url });
    const { storage, clock } = server.app.deps;
    await assert.rejects(storage.fork().transactional(async (em) => {
      recordEvent(em, 'group.created', { group: { id: 'rolled-back' } }, clock);
      await em.flush();
      throw new Error('roll back');
    }));
    await storage.fork().transactional(async (em) => {
      recordEvent(em, 'group.created', { group: { id: 'in-transaction' } }, clock);
    });
    let committed = Date.now();
    await sink.waitFor(1, PROMPT_MS);
    assert.ok(Date.now() - committed < PROMPT_MS);
    const em = storage.fork();
    recordEvent(em, 'group.created', { group: { id: 'no-transaction' } }, clock);
    await em.flush();
    committed = Date.now();
    await sink.waitFor(2, PROMPT_MS);
    assert.ok(Date.now() - committed < PROMPT_MS);
    await server.app.webhooks.idle();
    assert.deepEqual(sink.received.map((r) => r.json.group.id), ['in-transaction', 'no-transaction']);
  });

  test('a retry comes from this instance\'s own timer, not the poll, with the same delivery id', async () => {
    let calls = 0;
    const flaky = await receiver(() => (++calls === 1 ? { status: 503 } : { status: 200 }));
    await addWebhook(server, { event_name: 'group.deleted', endpoint: flaky.url });
    await server.app.deps.storage.fork().transactional(async (em) => {
      recordEvent(em, 'group.deleted', { group: { id: 'g-retry' } }, server.app.deps.clock);
    });
    // First attempt at once, the retry after 100-200 ms of backoff: both long before the poll.
    await flaky.waitFor(2, 3000);
    const [first, second] = flaky.received;
    assert.equal(first!.headers['x-service-delivery'], second!.headers['x-service-delivery']);
    assert.match(String(first!.headers['x-service-delivery']), /^[0-9a-f-]{36}$/);
    assert.equal(first!.body, second!.body);
  });
});
