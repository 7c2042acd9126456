/**
 * verifyClientSecret, the check the token endpoint makes (RFC 6749 section 2.3.1), against a real server's
 * database and clock: the current secret of an active client passes; after rotate_client_secret the old
 * secret keeps passing inside --client-secret-rotation-grace and fails from its end on
 * (docs/api-overview.md#states-and-transitions, "Client secret valid | rotate_client_secret"); a grace of 0 ends it at once; an inactive client, an
 * unknown client_id, another client's secret and a wrong secret all fail.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../support/admin-client.ts';
import { restClient } from '../support/rest-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { verifyClientSecret } from '../../server/modules/clients/index.ts';

const GRACE_SECONDS = 600;

interface Registered {
  id: string;
  clientId: string;
  secret: string;
}

function registry(server: () => TestServer, clock: TestClock) {
  const admin = (op: string, body: Record<string, unknown>) => restClient(server()).post(`/v1/admin/${op}`, body, ADMIN);
  return {
    admin,
    async create(name = 'machine client'): Promise<Registered> {
      const reply = await admin('create_client', { name, allowed_scopes: ['jobs:run'] });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return { id: reply.body.client.id, clientId: reply.body.client.client_id, secret: reply.body.client_secret };
    },
    async rotate(client: Registered): Promise<string> {
      const reply = await admin('rotate_client_secret', { id: client.id });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.client.client_id, client.clientId, 'rotation keeps the public id');
      return reply.body.client_secret;
    },
    async verify(clientId: string, secret: string): Promise<string | undefined> {
      const found = await verifyClientSecret(server().app.deps.storage.fork(), clientId, secret, clock.now());
      return found?.clientId;
    },
  };
}

describe('client secret verification and rotation grace', () => {
  const clock = new TestClock();
  let server: TestServer;
  const clients = registry(() => server, clock);

  before(async () => {
    server = await startServer(['--client-secret-rotation-grace', String(GRACE_SECONDS)], { clock });
  });
  after(async () => {
    await server?.close();
  });

  test('the current secret passes; wrong, foreign, empty and unknown ones do not', async () => {
    const a = await clients.create('a');
    const b = await clients.create('b');
    assert.equal(await clients.verify(a.clientId, a.secret), a.clientId);
    assert.equal(await clients.verify(a.clientId, b.secret), undefined, "another client's secret");
    assert.equal(await clients.verify(a.clientId, a.secret.slice(0, -1)), undefined, 'a truncated secret');
    assert.equal(await clients.verify(a.clientId, `${a.secret}x`), undefined, 'a longer secret');
    assert.equal(await clients.verify(a.clientId, ''), undefined, 'an empty secret');
    assert.equal(await clients.verify('no-such-client', a.secret), undefined, 'an unknown client_id');
    assert.equal(await clients.verify(a.id, a.secret), undefined, 'the internal id is not a client_id');
  });

  test('after rotation the old secret passes inside the grace window and fails after it', async () => {
    const client = await clients.create();
    const rotatedAt = clock.now();
    const fresh = await clients.rotate(client);
    assert.notEqual(fresh, client.secret);
    assert.equal(await clients.verify(client.clientId, fresh), client.clientId, 'the new secret works at once');
    assert.equal(await clients.verify(client.clientId, client.secret), client.clientId, 'the old one still works');

    clock.advance(GRACE_SECONDS - 5);
    assert.equal(await clients.verify(client.clientId, client.secret), client.clientId, 'just inside the window');
    clock.advance(10);
    assert.ok(clock.now().getTime() > rotatedAt.getTime() + GRACE_SECONDS * 1000);
    assert.equal(await clients.verify(client.clientId, client.secret), undefined, 'refused once the window ended');
    assert.equal(await clients.verify(client.clientId, fresh), client.clientId, 'the new secret keeps working');
  });

  test('a second rotation inside the window ends the first secret at once', async () => {
    const client = await clients.create();
    const second = await clients.rotate(client);
    const third = await clients.rotate({ ...client, secret: second });
    assert.equal(await clients.verify(client.clientId, client.secret), undefined, 'only one earlier secret is kept');
    assert.equal(await clients.verify(client.clientId, second), client.clientId);
    assert.equal(await clients.verify(client.clientId, third), client.clientId);
  });

  test('an inactive client is refused with its current and its grace secret, and passes again once active', async () => {
    const client = await clients.create();
    const fresh = await clients.rotate(client);
    const off = await clients.admin('update_client', { id: client.id, is_active: false });
    assert.equal(off.body.is_active, false);
    assert.equal(await clients.verify(client.clientId, fresh), undefined);
    assert.equal(await clients.verify(client.clientId, client.secret), undefined);
    await clients.admin('update_client', { id: client.id, is_active: true });
    assert.equal(await clients.verify(client.clientId, fresh), client.clientId);
  });

  test('a deleted client is refused', async () => {
    const client = await clients.create();
    await clients.admin('delete_client', { id: client.id });
    assert.equal(await clients.verify(client.clientId, client.secret), undefined);
  });
});

describe('client secret rotation without a grace window', () => {
  const clock = new TestClock();
  let server: TestServer;
  const clients = registry(() => server, clock);

  before(async () => {
    server = await startServer(['--client-secret-rotation-grace', '0'], { clock });
  });
  after(async () => {
    await server?.close();
  });

  test('--client-secret-rotation-grace 0 ends the old secret at rotation', async () => {
    const client = await clients.create();
    const fresh = await clients.rotate(client);
    assert.equal(await clients.verify(client.clientId, client.secret), undefined);
    assert.equal(await clients.verify(client.clientId, fresh), client.clientId);
  });
});
