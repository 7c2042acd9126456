/**
 * Trusted issuers and the assertion replay store on every database kind (storage/types.ts conventions):
 * the (client, iss) unique index, the delete_client cascade, a jti spent once even when two presentations
 * race (the primary key decides, so instances sharing the database agree), an expired jti freed again, the
 * sweep of expired rows, and a private_key_jwt replay refused over HTTP.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startServer, type TestServer } from '../support/app.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { TrustedIssuer } from '../../server/modules/clients/index.ts';
import { UsedAssertion } from '../../server/modules/clients/trusted-issuer.entity.ts';
import { consumeAssertionId } from '../../server/modules/clients/assertion-replay.ts';
import { CLIENT_ASSERTION_TYPE, JWT_BEARER, JwksServer, LOOPBACK_JWKS_FLAG, TOKEN_ENDPOINT_AUD, addIssuer, createClient, newSigningKey, signAssertion, tokenRequest } from '../oauth/trusted-issuer-fixture.ts';
import { adminClient } from '../support/admin-client.ts';

for (const kind of testDatabaseKinds()) {
  describe(`trusted issuers and assertion replay on ${kind}`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let jwks: JwksServer;

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startServer([...db.flags, LOOPBACK_JWKS_FLAG]);
      jwks = await new JwksServer().start();
    });
    after(async () => {
      await jwks?.close();
      await server?.close();
      await db?.cleanup();
    });

    test('one issuer per (client, iss), cascade on delete_client', async () => {
      const client = await createClient(server);
      const input = { client_id: client.client_id, name: 'n', issuer: 'https://db.example', jwks_url: jwks.url };
      await addIssuer(server, input);
      const again = await adminClient(server).call('add_trusted_issuer', input);
      assert.equal(again.status, 409, JSON.stringify(again.body));
      await adminClient(server).call('delete_client', { id: client.id });
      assert.equal(await server.app.deps.storage.fork().count(TrustedIssuer, { clientId: client.client_id }), 0);
    });

    test('a jti is spent once, also by racing presentations; an expired one is free again and swept', async () => {
      const { deps } = server.app;
      const now = new Date();
      const until = new Date(now.getTime() + 60_000);
      const jti = randomUUID();
      const results = await Promise.all(Array.from({ length: 4 }, () =>
        consumeAssertionId(deps.storage.fork(), deps, 'client', 'racer', jti, until, now)));
      assert.equal(results.filter(Boolean).length, 1, `exactly one wins: ${results}`);
      assert.equal(await consumeAssertionId(deps.storage.fork(), deps, 'client', 'racer', jti, until, now), false);
      // The same jti from another client is another assertion.
      assert.equal(await consumeAssertionId(deps.storage.fork(), deps, 'client', 'other', jti, until, now), true);
      // Once its assertion has expired, the id may be used again (RFC 7523 section 3 item 7: kept while valid).
      const later = new Date(until.getTime() + 1000);
      assert.equal(await consumeAssertionId(deps.storage.fork(), deps, 'client', 'racer', jti, new Date(later.getTime() + 60_000), later), true);
      // A sweep (due a minute after the last) removes rows whose assertion expired.
      const muchLater = new Date(later.getTime() + 10 * 60_000);
      await consumeAssertionId(deps.storage.fork(), deps, 'client', 'sweeper', randomUUID(), new Date(muchLater.getTime() + 60_000), muchLater);
      assert.equal(await deps.storage.fork().count(UsedAssertion, { expiresAt: { $lt: muchLater } }), 0);
    });

    test('a replayed private_key_jwt assertion is invalid_client', async () => {
      const key = await newSigningKey('ES256');
      jwks.keys = [key.publicJwk];
      const client = await createClient(server);
      await addIssuer(server, { client_id: client.client_id, name: 'keys', issuer: 'https://replay.example', jwks_url: jwks.url });
      const assertion = await signAssertion(key, { iss: client.client_id, sub: client.client_id, aud: TOKEN_ENDPOINT_AUD });
      const form = { grant_type: JWT_BEARER, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion };
      const first = await tokenRequest(server, form);
      assert.equal(first.status, 400, 'authenticated, then the grant wants its assertion');
      assert.equal(first.body.error, 'invalid_request');
      const replay = await tokenRequest(server, form);
      assert.equal(replay.status, 401);
      assert.equal(replay.body.error, 'invalid_client');
      assert.match(replay.body.error_description, /already used/);
    });
  });
}
