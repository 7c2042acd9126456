/**
 * Proof with a strict relying party, machine clients: openid-client
 * 6 obtains client_credentials tokens (RFC 6749 section 4.4) for a registered client, within its
 * allowed_scopes, authenticated by client_secret_basic; a scope outside them is invalid_scope (section 5.2), and
 * /userinfo refuses such a token, which speaks for no user.
 * On SQLite and PostgreSQL, over a real server that knows its own URL.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import type { TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { registerClient, startOidcServer } from '../support/oidc-server.ts';

const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres'];

for (const kind of KINDS) {
  describe(`openid-client 6, client_credentials (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let rp: client.Configuration;
    let clientId: string;

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startOidcServer(db.flags);
      const registered = await registerClient(server, { name: 'Machine', allowed_scopes: ['api:read'] });
      clientId = registered.clientId;
      rp = await client.discovery(new URL(server.baseUrl), clientId, undefined, client.ClientSecretBasic(registered.secret), {
        execute: [client.allowInsecureRequests],
      });
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('clientCredentialsGrant gets an access token within the allowed scopes, and nothing outside them', async () => {
      assert.ok((rp.serverMetadata().grant_types_supported ?? []).includes('client_credentials'), 'advertised');
      const granted = await client.clientCredentialsGrant(rp, { scope: 'api:read' });
      assert.equal(granted.token_type.toLowerCase(), 'bearer');
      assert.ok(granted.expires_in! > 0 && granted.expires_in! <= 3600, 'expires_in is seconds from now');
      const claims = decodeJwt(granted.access_token);
      assert.equal(claims.iss, server.baseUrl);
      assert.equal(claims.client_id, clientId);
      await assert.rejects(client.clientCredentialsGrant(rp, { scope: 'api:write' }), (err: unknown) =>
        err instanceof client.ResponseBodyError && err.error === 'invalid_scope');
      // A machine token speaks for no user: /userinfo refuses it (OIDC Core section 5.3: an OpenID token only).
      await assert.rejects(client.fetchUserInfo(rp, granted.access_token, client.skipSubjectCheck), (err: unknown) =>
        err instanceof client.WWWAuthenticateChallengeError && err.cause[0]?.parameters.error === 'invalid_token');
    });
  });
}
