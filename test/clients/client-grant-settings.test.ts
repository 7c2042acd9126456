/**
 * The per-client OAuth settings as fields of the client registry (server/modules/clients/client-settings.ts),
 * over REST, GraphQL and gRPC: create_client and update_client set the device grant switch, token exchange with
 * its audiences and the back-channel logout registration; the client's answer (create, update, client, clients)
 * shows them; the one-setting operations (_client_device_grant, _set_client_token_exchange, ...) read and write
 * the same rows. Omitted fields stay; a refused field (an internal logout address, audiences while off, the
 * session flag without a URI) refuses the whole update and changes nothing; delete_client removes them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminProtocolsOnServer, type Protocol } from '../support/admin-protocols.ts';
import { BackchannelLogoutClient } from '../../server/modules/clients/index.ts';

const NOW = new Date(Date.UTC(2026, 1, 1));
const PROTOCOLS: readonly Protocol[] = ['rest', 'graphql', 'grpc'];
const LOGOUT_URI = 'https://rp.example.com/backchannel';

describe('per-client OAuth settings as client registry fields', () => {
  const { call, over, overAll, server } = adminProtocolsOnServer([], { clock: { now: () => NOW } });

  test('a new client has every setting off; create_client sets them and every answer shows them, over each protocol', async () => {
    const plain = (await over('rest', 'create_client', { name: 'plain' })).client;
    assert.equal(plain.device_grant_enabled, false);
    assert.equal(plain.token_exchange_enabled, false);
    assert.equal(plain.backchannel_logout_uri ?? '', '');
    assert.equal(plain.backchannel_logout_session_required ?? false, false);
    for (const protocol of PROTOCOLS) {
      const { client } = await over(protocol, 'create_client', {
        name: `settings via ${protocol}`,
        device_grant_enabled: true,
        token_exchange_enabled: true,
        token_exchange_audiences: ['calendar-api', ' calendar-api ', 'https://mail.example.com/'],
        backchannel_logout_uri: LOGOUT_URI,
        backchannel_logout_session_required: true,
      });
      assert.equal(client.device_grant_enabled, true, protocol);
      assert.equal(client.token_exchange_enabled, true, protocol);
      assert.deepEqual(client.token_exchange_audiences, ['calendar-api', 'https://mail.example.com/'], `${protocol}: trimmed, each once`);
      assert.equal(client.backchannel_logout_uri, LOGOUT_URI, protocol);
      assert.equal(client.backchannel_logout_session_required, true, protocol);
      assert.deepEqual(await overAll('client', { id: client.id }), client);
      const listed = (await overAll('clients', { pagination: { limit: 100 } })).clients.find((c: { id: string }) => c.id === client.id);
      assert.deepEqual(listed, client, `${protocol}: clients shows them too`);
      // The one-setting operations read the same rows.
      assert.deepEqual(await overAll('client_device_grant', { client_id: client.client_id }), { client_id: client.client_id, enabled: true });
      assert.deepEqual(await overAll('client_token_exchange', { client_id: client.client_id }), {
        client_id: client.client_id, enabled: true, audiences: ['calendar-api', 'https://mail.example.com/'],
      });
      assert.deepEqual(await overAll('client_backchannel_logout', { client_id: client.client_id }), {
        client_id: client.client_id, backchannel_logout_uri: LOGOUT_URI, backchannel_logout_session_required: true,
      });
    }
  });

  test('update_client changes each setting alone; omitted ones stay, over each protocol', async () => {
    for (const protocol of PROTOCOLS) {
      const { client } = await over('rest', 'create_client', {
        name: `update via ${protocol}`, device_grant_enabled: true, token_exchange_enabled: true, token_exchange_audiences: ['a'],
        backchannel_logout_uri: LOGOUT_URI, backchannel_logout_session_required: false,
      });
      const audiences = await over(protocol, 'update_client', { id: client.id, token_exchange_audiences: ['b', 'c'] });
      assert.deepEqual([audiences.token_exchange_enabled, audiences.token_exchange_audiences], [true, ['b', 'c']], `${protocol}: audiences alone replace them`);
      assert.equal(audiences.device_grant_enabled, true, `${protocol}: the device grant stays`);
      assert.equal(audiences.backchannel_logout_uri, LOGOUT_URI, `${protocol}: the logout URI stays`);
      const flag = await over(protocol, 'update_client', { id: client.id, backchannel_logout_session_required: true });
      assert.deepEqual([flag.backchannel_logout_uri, flag.backchannel_logout_session_required], [LOGOUT_URI, true], `${protocol}: the flag alone`);
      const off = await over(protocol, 'update_client', { id: client.id, device_grant_enabled: false, token_exchange_enabled: false, description: 'off' });
      assert.deepEqual([off.device_grant_enabled, off.token_exchange_enabled, off.description], [false, false, 'off'], protocol);
      assert.deepEqual(off.token_exchange_audiences ?? [], [], `${protocol}: no audiences once off`);
      const untouched = await over(protocol, 'update_client', { id: client.id, name: 'renamed' });
      assert.deepEqual([untouched.device_grant_enabled, untouched.token_exchange_enabled, untouched.backchannel_logout_uri], [false, false, LOGOUT_URI], protocol);
      const removed = await over(protocol, 'update_client', { id: client.id, backchannel_logout_uri: '' });
      assert.equal(removed.backchannel_logout_uri ?? '', '', `${protocol}: an empty URI removes it`);
      assert.equal(removed.backchannel_logout_session_required ?? false, false, protocol);
      // The one-setting operation's write shows in the client's answer.
      await over(protocol, 'set_client_device_grant', { client_id: client.client_id, enabled: true });
      assert.equal((await over(protocol, 'client', { id: client.id })).device_grant_enabled, true, protocol);
    }
  });

  test('a refused setting refuses the whole create or update and changes nothing, over each protocol', async () => {
    const { client } = await over('rest', 'create_client', { name: 'refusals' });
    const before = await over('rest', 'client', { id: client.id });
    for (const protocol of PROTOCOLS) {
      for (const uri of ['http://10.0.0.5/bc', 'https://localhost/bc', 'http://rp.example.com/bc', 'https://rp.example.com/bc#x', 'not a url']) {
        const updated = await call(protocol, 'update_client', { id: client.id, device_grant_enabled: true, description: 'changed', backchannel_logout_uri: uri });
        assert.equal('error' in updated && updated.error, 'invalid_argument', `${protocol} ${uri}: ${JSON.stringify(updated)}`);
        assert.match((updated as { message: string }).message, /backchannel_logout_uri/, `${protocol}: the message names the field`);
        const created = await call(protocol, 'create_client', { name: 'refused', backchannel_logout_uri: uri });
        assert.equal('error' in created && created.error, 'invalid_argument', `${protocol} create ${uri}`);
      }
      const audiences = await call(protocol, 'update_client', { id: client.id, token_exchange_audiences: ['x'] });
      assert.equal('error' in audiences && audiences.error, 'invalid_argument', `${protocol}: audiences while token exchange is off`);
      assert.match((audiences as { message: string }).message, /token_exchange_enabled/);
      const flag = await call(protocol, 'update_client', { id: client.id, backchannel_logout_session_required: true });
      assert.equal('error' in flag && flag.error, 'invalid_argument', `${protocol}: the session flag without a URI`);
      const tooMany = await call(protocol, 'update_client', { id: client.id, token_exchange_enabled: true, token_exchange_audiences: Array.from({ length: 21 }, (_, i) => `api-${i}`) });
      assert.equal('error' in tooMany && tooMany.error, 'invalid_argument', `${protocol}: at most 20 audiences`);
    }
    assert.deepEqual(await over('rest', 'client', { id: client.id }), before, 'nothing of the refused updates was kept');
    const names = (await over('rest', 'clients', { pagination: { limit: 100 } })).clients.map((c: { name: string }) => c.name);
    assert.ok(!names.includes('refused'), 'no refused client was created');
  });

  test('delete_client removes the client\'s settings rows', async () => {
    const { client } = await over('rest', 'create_client', { name: 'deleted', device_grant_enabled: true, token_exchange_enabled: true, backchannel_logout_uri: LOGOUT_URI });
    const em = () => server().app.deps.storage.fork();
    assert.equal(await em().count(BackchannelLogoutClient, { id: client.id }), 1);
    await over('grpc', 'delete_client', { id: client.id });
    assert.equal(await em().count(BackchannelLogoutClient, { id: client.id }), 0);
    const again = await call('rest', 'client_device_grant', { client_id: client.client_id });
    assert.equal('error' in again && again.error, 'not_found');
  });
});
