/**
 * A client registered without allowed_scopes gets `openid email profile` (clients.schema.ts
 * DEFAULT_ALLOWED_SCOPES), on REST, GraphQL and gRPC alike: an omitted list and an empty one are the same on
 * every protocol (a protobuf repeated field cannot tell them apart). Before, such a client stored no scope at
 * all and client_credentials with scope=openid was invalid_scope. A list that is given is kept as given, and
 * update_client can still empty the list.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminProtocolsOnServer } from '../support/admin-protocols.ts';
import { clientCredentials, post } from '../oauth/client-auth-support.ts';

const DEFAULT = ['openid', 'email', 'profile'];

describe('allowed_scopes default at registration', () => {
  const { over, server } = adminProtocolsOnServer();

  test('omitted or empty: openid email profile, over each protocol', async () => {
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      const omitted = await over(protocol, 'create_client', { name: `default via ${protocol}` });
      assert.deepEqual(omitted.client.allowed_scopes, DEFAULT, `${protocol}: omitted`);
      const empty = await over(protocol, 'create_client', { name: `empty via ${protocol}`, allowed_scopes: [] });
      assert.deepEqual(empty.client.allowed_scopes, DEFAULT, `${protocol}: empty`);
      const given = await over(protocol, 'create_client', { name: `given via ${protocol}`, allowed_scopes: ['jobs:run'] });
      assert.deepEqual(given.client.allowed_scopes, ['jobs:run'], `${protocol}: a given list is kept`);
    }
  });

  test('a default client may ask client_credentials for openid; an emptied one gets an empty scope', async () => {
    const { client, client_secret: secret } = await over('rest', 'create_client', { name: 'machine with defaults' });
    const credentials = post({ clientId: client.client_id, secret });
    const openid = await clientCredentials(server(), credentials, 'openid');
    assert.equal(openid.status, 200, JSON.stringify(openid.body));
    assert.equal(openid.body.scope, 'openid');
    assert.equal((await clientCredentials(server(), credentials)).body.scope, 'openid email profile');

    const emptied = await over('rest', 'update_client', { id: client.id, allowed_scopes: [] });
    assert.deepEqual(emptied.allowed_scopes, []);
    assert.equal((await clientCredentials(server(), credentials, 'openid')).body.error, 'invalid_scope');
  });
});
