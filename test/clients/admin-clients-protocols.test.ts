/**
 * The client registry over REST, GraphQL and gRPC with real inputs (the registry-wide parity test calls
 * with empty ones only): create and rotate answer a working secret on each protocol; client, clients and
 * update_client answer alike on all three; an update over gRPC that omits the lists (proto3 repeated fields
 * carry no presence) leaves them as they were instead of clearing them. post_logout_redirect_uris (OpenID
 * Connect RP-Initiated Logout 1.0 section 3.2) are set, read, replaced and checked alike on all three.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminProtocolsOnServer } from '../support/admin-protocols.ts';
import { verifyClientSecret } from '../../server/modules/clients/index.ts';

// A still clock: the three protocols apply the same update, so updated_at must not tick between them.
const NOW = new Date(Date.UTC(2026, 1, 1));


describe('client registry across protocols', () => {
  const { call, over, overAll, server: app } = adminProtocolsOnServer([], { clock: { now: () => NOW } });

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

  test('post_logout_redirect_uris: set by create, read, replaced by update and kept when omitted, over each protocol', async () => {
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      const created = await over(protocol, 'create_client', {
        name: `logout via ${protocol}`,
        redirect_uris: ['https://rp.example.com/cb'],
        post_logout_redirect_uris: ['https://rp.example.com/logged-out', 'http://127.0.0.1:9000/bye', 'https://rp.example.com/logged-out'],
      });
      assert.deepEqual(created.client.post_logout_redirect_uris, ['https://rp.example.com/logged-out', 'http://127.0.0.1:9000/bye'], `${protocol}: kept as given, duplicates once`);
      assert.deepEqual(created.client.redirect_uris, ['https://rp.example.com/cb'], `${protocol}: the redirect URIs are their own list`);
      assert.deepEqual(await overAll('client', { id: created.client.id }), created.client);
      const listed = (await overAll('clients', { pagination: { limit: 100 } })).clients.find((c: { id: string }) => c.id === created.client.id);
      assert.deepEqual(listed.post_logout_redirect_uris, created.client.post_logout_redirect_uris, `${protocol}: clients lists them`);

      const replaced = await over(protocol, 'update_client', { id: created.client.id, post_logout_redirect_uris: ['https://rp.example.com/bye'] });
      assert.deepEqual(replaced.post_logout_redirect_uris, ['https://rp.example.com/bye'], protocol);
      assert.deepEqual(replaced.redirect_uris, ['https://rp.example.com/cb'], protocol);
      const untouched = await over(protocol, 'update_client', { id: created.client.id, description: 'omitted list stays' });
      assert.deepEqual(untouched.post_logout_redirect_uris, ['https://rp.example.com/bye'], `${protocol}: an omitted list stays`);
    }
  });

  test('post_logout_redirect_uris are checked like redirect URIs, and https unless loopback, over each protocol', async () => {
    const { client } = await over('rest', 'create_client', { name: 'checked', post_logout_redirect_uris: ['https://rp.example.com/out'] });
    const bad = [
      'http://rp.example.com/out', 'https://rp.example.com/out#top', '/relative', 'javascript:alert(1)', 'https:rp.example.com/out',
      'https://user:pw@rp.example.com/out', 'https://rp.example.com/a b', 'http://10.0.0.5/out',
    ];
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      for (const uri of bad) {
        const created = await call(protocol, 'create_client', { name: 'refused', post_logout_redirect_uris: [uri] });
        assert.equal('error' in created && created.error, 'invalid_argument', `${protocol} create ${uri}: ${JSON.stringify(created)}`);
        assert.match((created as { message: string }).message, /post_logout_redirect_uris/, `${protocol}: the message names the field`);
        const updated = await call(protocol, 'update_client', { id: client.id, post_logout_redirect_uris: [uri] });
        assert.equal('error' in updated && updated.error, 'invalid_argument', `${protocol} update ${uri}`);
      }
      const tooMany = await call(protocol, 'update_client', { id: client.id, post_logout_redirect_uris: Array.from({ length: 51 }, (_, i) => `https://rp.example.com/${i}`) });
      assert.equal('error' in tooMany && tooMany.error, 'invalid_argument', `${protocol}: at most 50`);
    }
    for (const uri of ['http://localhost:8080/out', 'http://[::1]:8080/out', 'http://127.0.0.2/out']) {
      assert.deepEqual((await over('rest', 'update_client', { id: client.id, post_logout_redirect_uris: [uri] })).post_logout_redirect_uris, [uri], uri);
    }
    const names = (await over('rest', 'clients', { pagination: { limit: 100 } })).clients.map((c: { name: string }) => c.name);
    assert.ok(!names.includes('refused'), 'no refused client was created');
  });
});
