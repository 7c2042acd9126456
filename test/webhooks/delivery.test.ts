/**
 * Webhook delivery (docs/events.md): revoke_access and enable_access reach a loopback receiver as
 * signed POSTs; a failing endpoint is retried with every attempt logged; a slow endpoint delays no other.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { startReceiver, validSignature, type Receiver } from './receiver.ts';
import { recordEvent } from '../../server/modules/events/index.ts';
import { addWebhook, admin, signUp, startWebhookServer } from './support.ts';

describe('webhook delivery', () => {
  let server: TestServer;
  const receivers: Receiver[] = [];
  before(async () => {
    server = await startWebhookServer();
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

  test('revoke and enable reach the receiver once each, signed with the client secret', async () => {
    const sink = await receiver();
    await addWebhook(server, { event_name: 'user.access_revoked', endpoint: sink.url, headers: { 'X-Tenant': 'acme' } });
    await addWebhook(server, { event_name: 'user.access_enabled', endpoint: sink.url, event_description: 'back in' });
    const user = await signUp(server, 'revoked@example.com');
    await admin(server).ok('revoke_access', { user_id: user.id });
    await admin(server).ok('enable_access', { user_id: user.id });
    await sink.waitFor(2);
    await server.app.webhooks.idle();
    assert.equal(sink.received.length, 2);
    const byEvent = Object.fromEntries(sink.received.map((r) => [r.json.event_name, r]));
    const revoked = byEvent['user.access_revoked']!;
    const enabled = byEvent['user.access_enabled']!;
    for (const r of [revoked, enabled]) {
      assert.ok(validSignature(CLIENT_SECRET, r.body, r.headers['x-service-signature']), 'X-Service-Signature is hex(HMAC-SHA256(client secret, body))');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.match(String(r.headers['x-service-delivery']), /^[0-9a-f-]{36}$/);
      assert.equal(r.json.user.id, user.id);
      assert.equal(r.json.user.email, 'revoked@example.com');
      assert.deepEqual(Object.keys(r.json).slice(0, 3), ['webhook_id', 'event_name', 'event_description']);
    }
    assert.equal(revoked.json.event_description, 'user access_revoked');
    assert.equal(revoked.headers['x-tenant'], 'acme');
    assert.equal(enabled.json.event_description, 'back in');
    assert.notEqual(revoked.headers['x-service-delivery'], enabled.headers['x-service-delivery']);
  });

  test('a failing endpoint is retried until it answers 2xx, and every attempt is logged', async () => {
    let calls = 0;
    const flaky = await receiver(() => (++calls === 1 ? { status: 500, body: 'down for a moment' } : { status: 200, body: 'thanks' }));
    const id = await addWebhook(server, { event_name: 'user.deactivated', endpoint: flaky.url });
    const other = await signUp(server, 'flaky@example.com');
    // user.deactivated comes from the user's own deactivate_account; the outbox is fed directly here instead.
    await server.app.deps.storage.fork().transactional(async (em) => {
      recordEvent(em, 'user.deactivated', { user: { id: other.id } }, server.app.deps.clock);
    });
    await flaky.waitFor(2);
    await server.app.webhooks.idle();
    assert.equal(flaky.received.length, 2);
    assert.equal(flaky.received[0]!.headers['x-service-delivery'], flaky.received[1]!.headers['x-service-delivery'], 'a retry keeps the delivery id');
    assert.equal(flaky.received[0]!.body, flaky.received[1]!.body);
    const logs = await admin(server).ok('webhook_logs', { webhook_id: id });
    assert.equal(logs.pagination.total, 2);
    const statuses = logs.webhook_logs.map((l: { http_status: number }) => l.http_status).sort();
    assert.deepEqual(statuses, [200, 500]);
    for (const log of logs.webhook_logs) {
      assert.equal(log.webhook_id, id);
      assert.equal(log.request, flaky.received[0]!.body);
    }
    assert.deepEqual(logs.webhook_logs.map((l: { response: string }) => l.response).sort(), ['down for a moment', 'thanks']);
    const metrics = await (await fetch(`http://127.0.0.1:${server.ports.metrics}/metrics`)).text();
    assert.match(metrics, /portcullis_webhook_deliveries_total\{event="user.deactivated",outcome="retry"\} 1\n/);
    assert.match(metrics, /portcullis_webhook_deliveries_total\{event="user.deactivated",outcome="delivered"\} 1\n/);
    assert.match(metrics, /portcullis_webhook_backlog\{queue="deliveries"\} 0\n/);
  });

  test('a slow endpoint does not delay another webhook of the same event', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = await receiver(async () => {
      await released;
      return { status: 200 };
    });
    const fast = await receiver();
    await addWebhook(server, { event_name: 'user.login', endpoint: slow.url });
    await addWebhook(server, { event_name: 'user.login', endpoint: fast.url });
    await server.app.deps.storage.fork().transactional(async (em) => {
      recordEvent(em, 'user.login', { user: { id: 'u-slow' }, auth_recipe: 'basic_auth' }, server.app.deps.clock);
    });
    // The fast receiver gets its delivery while the slow one is still holding its request open.
    await fast.waitFor(1, 1500);
    await slow.waitFor(1, 1500);
    assert.equal(fast.received[0]!.json.auth_recipe, 'basic_auth');
    release();
    await server.app.webhooks.idle();
    assert.equal(slow.received.length, 1);
  });
});
