/**
 * Webhook admin operations (docs/operations.md) and the SSRF guard
 * (docs/events.md: private and loopback addresses refused unless explicitly allowed).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { startReceiver, validSignature, type Receiver } from './receiver.ts';
import { addWebhook, admin, startWebhookServer } from './support.ts';
import { isRefusedAddress } from '../../server/modules/webhooks/index.ts';

test('the address policy refuses internal ranges and accepts public ones', () => {
  for (const address of [
    '127.0.0.1', '127.255.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::', '::1', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', 'fe80::1%eth0',
  ]) {
    assert.equal(isRefusedAddress(address), true, address);
  }
  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111']) {
    assert.equal(isRefusedAddress(address), false, address);
  }
});

describe('webhook admin operations without --webhook-allow-private-addresses', () => {
  let server: TestServer;
  let sink: Receiver;
  before(async () => {
    server = await startWebhookServer([]);
    sink = await startReceiver();
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  test('test_endpoint and add_webhook refuse loopback, private, link-local and metadata targets', async () => {
    const refused = await admin(server).call('test_endpoint', { endpoint: sink.url, event_name: 'user.login' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'invalid_argument');
    assert.match(refused.body.message, /--webhook-allow-private-addresses=true/);
    for (const endpoint of [
      'http://127.0.0.1:9/x', 'http://[::1]/x', 'http://localhost/x', 'http://10.0.0.1/x', 'http://169.254.169.254/latest/meta-data',
      'http://0x7f000001/x', 'http://[::ffff:127.0.0.1]/x', 'http://app.localhost/x',
    ]) {
      const reply = await admin(server).call('add_webhook', { event_name: 'user.login', endpoint, enabled: true });
      assert.equal(reply.status, 400, endpoint);
      assert.equal(reply.body.code, 'invalid_argument', endpoint);
    }
    const id = await addWebhook(server, { event_name: 'user.login', endpoint: 'https://hooks.example.com/b' });
    const update = await admin(server).call('update_webhook', { id, endpoint: 'http://169.254.169.254/latest' });
    assert.equal(update.body.code, 'invalid_argument', 'update refuses the metadata address too');
    assert.equal(sink.received.length, 0, 'nothing reached the loopback receiver');
  });
});

describe('webhook admin operations with --webhook-allow-private-addresses=true', () => {
  let server: TestServer;
  let sink: Receiver;
  before(async () => {
    server = await startWebhookServer();
    sink = await startReceiver(() => ({ status: 202, body: 'accepted' }));
  });
  after(async () => {
    await server.close();
    await sink.close();
  });

  test('test_endpoint sends one signed sample and answers the status and body', async () => {
    const answer = await admin(server).ok('test_endpoint', { endpoint: sink.url, event_name: 'user.signup', headers: { Authorization: 'Bearer t' } });
    assert.deepEqual(answer, { http_status: 202, response: 'accepted' });
    const [sent] = sink.received;
    assert.ok(validSignature(CLIENT_SECRET, sent!.body, sent!.headers['x-service-signature']));
    assert.equal(sent!.headers.authorization, 'Bearer t');
    assert.equal(sent!.json.event_name, 'user.signup');
    assert.equal(sent!.json.event_description, 'user signup');
    assert.equal(sent!.json.auth_recipe, 'basic_auth');
    const unreachable = await admin(server).call('test_endpoint', { endpoint: 'http://127.0.0.1:1/x', event_name: 'user.login' });
    assert.equal(unreachable.body.code, 'failed_precondition');
  });

  test('only the thirteen event names, http(s) endpoints and safe headers are accepted', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ event_name: 'user.logged_in' }, /event_name: unknown event/],
      [{ endpoint: 'ftp://example.com/x' }, /only http and https/],
      [{ endpoint: 'https://user:pw@example.com/x' }, /credentials/],
      [{ endpoint: 'not a url' }, /endpoint/],
      [{ headers: { 'X-Service-Signature': 'forged' } }, /set by the server/],
      [{ headers: { 'content-type': 'text/plain' } }, /set by the server/],
      [{ headers: { Host: 'internal' } }, /set by the server/],
      [{ headers: { 'Bad Name': 'x' } }, /not a valid header name/],
      [{ headers: { 'X-Split': 'a\r\nX-Injected: 1' } }, /./],
      [{ headers: { 'X-Long': 'x'.repeat(5000) } }, /at most/],
      [{ headers: { 'X-Number': 5 } }, /must be a string/],
    ];
    for (const [fields, message] of bad) {
      const reply = await admin(server).call('add_webhook', { event_name: 'user.login', endpoint: sink.url, enabled: true, ...fields });
      assert.equal(reply.status, 400, JSON.stringify(fields));
      assert.equal(reply.body.code, 'invalid_argument', JSON.stringify(fields));
      assert.match(reply.body.message, message, JSON.stringify(fields));
    }
  });

  test('add, read, update, list and delete a webhook', async () => {
    const id = await addWebhook(server, { event_name: 'group.created', endpoint: 'https://hooks.example.com/a', headers: { 'X-Key': 'k' } });
    const api = admin(server);
    const read = await api.ok('webhook', { id });
    assert.equal(read.event_description, 'group created');
    assert.deepEqual(read.headers, { 'X-Key': 'k' });
    assert.equal(read.enabled, true);
    await api.ok('update_webhook', { id, event_name: 'group.deleted', enabled: false });
    const updated = await api.ok('webhook', { id });
    assert.equal(updated.event_name, 'group.deleted');
    assert.equal(updated.event_description, 'group deleted', 'a default description follows the event name');
    assert.equal(updated.enabled, false);
    assert.equal(updated.endpoint, 'https://hooks.example.com/a');
    assert.equal((await api.call('update_webhook', { id, event_name: 'user.nope' })).body.code, 'invalid_argument');
    assert.equal((await api.call('update_webhook', { id: 'nope', enabled: true })).body.code, 'not_found');
    await api.ok('delete_webhook', { id });
    assert.equal((await api.call('webhook', { id })).body.code, 'not_found');
  });
});
