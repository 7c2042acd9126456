/**
 * Token exchange (RFC 8693) on each SQL database (the per-client switch's table comes from the schema update):
 * the switch is written, replaced and read back with its audiences; an exchange with the client's own actor
 * token gives a token with `act` recorded on the user's session, which signing out ends.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { CALLBACK, basicAuth, createClient, tokenIsValid, tokenRequest } from './authorize-support.ts';
import { userTokenFor } from './token-exchange-support.ts';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];

for (const kind of KINDS) {
  describe(`token exchange (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer(db.flags);
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('the switch with its audiences, an exchange with act on the user\'s session, ended by logout', async () => {
      const agent = await createClient(server, { name: 'Agent', allowed_scopes: ['openid', 'email', 'profile'], redirect_uris: [CALLBACK] });
      const admin = adminClient(server);
      await admin.ok('set_client_token_exchange', { client_id: agent.clientId, enabled: true, audiences: ['old-api'] });
      await admin.ok('set_client_token_exchange', { client_id: agent.clientId, enabled: true, audiences: ['calendar-api', 'calendar-api'] });
      assert.deepEqual(await admin.ok('client_token_exchange', { client_id: agent.clientId }), { client_id: agent.clientId, enabled: true, audiences: ['calendar-api'] });

      const user = await signedInUser(server);
      // The subject token must be addressed to the exchanging client (exchange.ts): the user's token for the agent.
      const subjectToken = await userTokenFor(server, `cookie_session=${user.sessionCookie}`, agent);
      const firstParty = await tokenRequest(server, { grant_type: TOKEN_EXCHANGE, subject_token: user.accessToken, subject_token_type: ACCESS_TOKEN_TYPE, audience: 'calendar-api' }, basicAuth(agent.clientId, agent.secret));
      assert.equal(firstParty.body.error, 'invalid_request', 'the first-party token is not the agent\'s to exchange');
      const auth = basicAuth(agent.clientId, agent.secret);
      const actor = await tokenRequest(server, { grant_type: 'client_credentials' }, auth);
      assert.equal(actor.status, 200, JSON.stringify(actor.body));
      const fields = { grant_type: TOKEN_EXCHANGE, subject_token: subjectToken, subject_token_type: ACCESS_TOKEN_TYPE, actor_token: actor.body.access_token, actor_token_type: ACCESS_TOKEN_TYPE };
      assert.equal((await tokenRequest(server, { ...fields, audience: 'old-api' }, auth)).body.error, 'invalid_target', 'the replaced audience is gone');
      const issued = await tokenRequest(server, { ...fields, audience: 'calendar-api' }, auth);
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      const claims = decodeJwt(issued.body.access_token);
      assert.equal(claims.sub, user.userId);
      assert.deepEqual(claims.act, { sub: agent.clientId });
      assert.deepEqual(claims.aud, ['calendar-api', agent.clientId]);
      assert.equal(await tokenIsValid(server, issued.body.access_token), true);

      const logout = await fetch(`${server.baseUrl}/v1/logout`, {
        method: 'POST', headers: { cookie: `cookie_session=${user.sessionCookie}`, origin: 'http://127.0.0.1:8080', 'content-type': 'application/json' }, body: '{}',
      });
      assert.equal(logout.status, 200);
      assert.equal(await tokenIsValid(server, issued.body.access_token), false);

      await admin.ok('set_client_token_exchange', { client_id: agent.clientId, enabled: false });
      assert.deepEqual(await admin.ok('client_token_exchange', { client_id: agent.clientId }), { client_id: agent.clientId, enabled: false, audiences: [] });
    });
  });
}
