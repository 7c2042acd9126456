/**
 * Back-channel logout on SQLite, PostgreSQL and MariaDB (docs/openid-connect-clients.md#back-channel-logout):
 * the registration, session-client and delivery tables exist, a code redemption records the client, and a
 * logout and a password change (revokeSessions with and without a kept session) queue and deliver a logout token.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { CALLBACK, PASSWORD, authorize, basicAuth, callAs, codeFrom, createClient, pkcePair, signedInBrowser, tokenRequest } from './authorize-support.ts';

const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];

for (const kind of KINDS) {
  describe(`back-channel logout (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let receiver: Server;
    const received: string[] = [];

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer([...db.flags, '--webhook-allow-private-addresses=true']);
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          received.push(new URLSearchParams(body).get('logout_token') ?? '');
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      await server?.close();
      await new Promise((resolve) => receiver?.close(resolve));
      await db?.cleanup();
    });

    test('logout and a password change each send the client a logout token naming the session of its ID token', async () => {
      const rp = await createClient(server, { redirect_uris: [CALLBACK] });
      const uri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bc`;
      await adminClient(server).ok('set_client_backchannel_logout', { client_id: rp.clientId, backchannel_logout_uri: uri, backchannel_logout_session_required: true });
      assert.equal((await adminClient(server).ok('client_backchannel_logout', { client_id: rp.clientId })).backchannel_logout_uri, uri);
      const browser = await signedInBrowser(server);
      const codeFlow = async (cookie: string) => {
        const { verifier, challenge } = pkcePair();
        const res = await authorize(server, {
          client_id: rp.clientId, redirect_uri: CALLBACK, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256', scope: 'openid',
        }, cookie);
        const token = await tokenRequest(server, { grant_type: 'authorization_code', code: await codeFrom(res, 's'), code_verifier: verifier, redirect_uri: CALLBACK }, basicAuth(rp.clientId, rp.secret));
        assert.equal(token.status, 200, JSON.stringify(token.body));
        return decodeJwt(token.body.id_token).sid;
      };
      const until = async (count: number) => {
        const end = Date.now() + 8000;
        while (received.length < count) {
          if (Date.now() > end) throw new Error(`waited for ${count} logout tokens, got ${received.length}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };

      const firstSid = await codeFlow(browser.cookie);
      // The code twice in one session: still one client pair, one logout token.
      assert.equal(await codeFlow(browser.cookie), firstSid);
      assert.equal((await callAs(server, browser, 'logout')).status, 200);
      await until(1);
      assert.equal(decodeJwt(received[0]!).sid, firstSid);

      const again = await signedInBrowser(server);
      const secondSid = await codeFlow(again.cookie);
      const login = await fetch(`${server.baseUrl}/v1/login`, {
        method: 'POST',
        headers: { origin: 'http://127.0.0.1:8080', 'content-type': 'application/json' },
        body: JSON.stringify({ email: again.email, password: PASSWORD }),
      });
      const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('cookie_session='))!;
      const changed = await callAs(server, { ...again, cookie }, 'update_profile', { old_password: PASSWORD, new_password: 'An0ther!pass-2', confirm_new_password: 'An0ther!pass-2' });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      await until(2);
      assert.equal(decodeJwt(received[1]!).sid, secondSid);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      assert.equal(received.length, 2, 'the kept session and the sessions without the client\'s tokens send nothing');
    });
  });
}
