/**
 * The device authorization grant on each SQL database (the new tables come from the schema update), with a
 * public client: one registered at /oauth/register with token_endpoint_auth_method none (RFC 7591) and the
 * device grant switched on by the admin asks with its client_id alone (RFC 8628 section 3.1), is approved by a
 * signed-in person, and redeems its device_code once with its client_id alone. Until the admin switches the
 * grant on, the same client is unauthorized_client.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { callAs, signedInBrowser, tokenRequest } from './authorize-support.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];

async function form(server: TestServer, path: string, fields: Record<string, string>) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

for (const kind of KINDS) {
  describe(`device authorization grant, public client (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer([...db.flags, '--dynamic-registration', 'open']);
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('a public client asks with its client_id alone, and redeems the approved request once', async () => {
      const registered = await fetch(`${server.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:3999/callback'], token_endpoint_auth_method: 'none', client_name: 'CLI' }),
      });
      assert.equal(registered.status, 201);
      const clientId = ((await registered.json()) as { client_id: string }).client_id;
      assert.equal((await form(server, '/oauth/device_authorization', { client_id: clientId })).body.error, 'unauthorized_client');

      await adminClient(server).ok('set_client_device_grant', { client_id: clientId, enabled: true });
      const opened = await form(server, '/oauth/device_authorization', { client_id: clientId, scope: 'openid' });
      assert.equal(opened.status, 200, JSON.stringify(opened.body));
      const pending = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: opened.body.device_code, client_id: clientId });
      assert.equal(pending.body.error, 'authorization_pending');

      const browser = await signedInBrowser(server);
      const shown = await callAs(server, browser, 'device_authorization_request', { user_code: opened.body.user_code });
      assert.deepEqual(shown.body, { client_id: clientId, client_name: 'CLI', scopes: ['openid'] });
      assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: opened.body.user_code, approve: true })).status, 200);

      const granted = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: opened.body.device_code, client_id: clientId });
      assert.equal(granted.status, 200, JSON.stringify(granted.body));
      assert.equal(decodeJwt(granted.body.access_token).aud, clientId);
      assert.equal(decodeJwt(granted.body.id_token).sub, browser.userId);
      const again = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: opened.body.device_code, client_id: clientId });
      assert.equal(again.body.error, 'invalid_grant');
    });
  });
}
