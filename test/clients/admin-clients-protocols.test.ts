/**
 * The client registry over REST, GraphQL and gRPC with real inputs (the registry-wide parity test calls
 * with empty ones only): create and rotate answer a working secret on each protocol; client, clients and
 * update_client answer alike on all three; an update over gRPC that omits the lists (proto3 repeated fields
 * carry no presence) leaves them as they were instead of clearing them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminProtocolsOnServer } from '../support/admin-protocols.ts';
import { verifyClientSecret } from '../../server/modules/clients/index.ts';

// A still clock: the three protocols apply the same update, so updated_at must not tick between them.
const NOW = new Date(Date.UTC(2026, 1, 1));


describe('client registry across protocols', () => {
  const { over, server: app } = adminProtocolsOnServer([], { clock: { now: () => NOW } });

  async function overAll(name: string, input: Record<string, unknown>): Promise<any> {
    const rest = await over('rest', name, input);
    assert.deepEqual(await over('graphql', name, input), rest, `GraphQL and REST differ for ${name}`);
    assert.deepEqual(await over('grpc', name, input), rest, `gRPC and REST differ for ${name}`);
    return rest;
  }

  const verify = (clientId: string, secret: string) =>
    verifyClientSecret(app().app.deps.storage.fork(), clientId, secret, NOW).then((c) => c?.clientId);

  test('create and rotate answer a working secret over each protocol', async () => {
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      const created = await over(protocol, 'create_client', {
        name: `via ${protocol}`,
        allowed_scopes: ['jobs:run'],
        redirect_uris: ['https://rp.example.com/cb'],
        consent_required: true,
      });
      assert.match(created.client_secret, /^[A-Za-z0-9_-]{43}$/, protocol);
      assert.deepEqual(created.client.redirect_uris, ['https://rp.example.com/cb'], protocol);
      assert.equal(created.client.consent_required, true, protocol);
      assert.equal(await verify(created.client.client_id, created.client_secret), created.client.client_id, protocol);

      const rotated = await over(protocol, 'rotate_client_secret', { id: created.client.id });
      assert.notEqual(rotated.client_secret, created.client_secret, protocol);
      assert.equal(await verify(created.client.client_id, rotated.client_secret), created.client.client_id, protocol);
    }
  });

  test('client, clients and update_client answer alike; omitted lists stay over gRPC too', async () => {
    const { client } = await over('rest', 'create_client', {
      name: 'shared',
      description: 'before',
      allowed_scopes: ['a', 'b'],
      redirect_uris: ['https://one.example.com/cb', 'http://127.0.0.1:9000/cb'],
    });
    assert.deepEqual(await overAll('client', { id: client.id }), client);
    assert.deepEqual(await overAll('client', { client_id: client.client_id }), client);
    const page = await overAll('clients', { pagination: { limit: 2, page: 1 } });
    assert.equal(page.clients.length, 2);
    assert.equal(page.pagination.limit, 2);

    const updated = await overAll('update_client', { id: client.id, description: 'after', is_active: false });
    assert.equal(updated.description, 'after');
    assert.equal(updated.is_active, false);
    assert.deepEqual(updated.allowed_scopes, ['a', 'b'], 'omitted scopes are kept on every protocol');
    assert.deepEqual(updated.redirect_uris, ['https://one.example.com/cb', 'http://127.0.0.1:9000/cb']);
    assert.equal(JSON.stringify(page).includes('secret'), false, 'the list carries no secret field');
  });
});
