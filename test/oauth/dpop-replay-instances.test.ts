/**
 * DPoP proof replay across instances (RFC 9449 section 11.1): two servers on one database, as behind a load
 * balancer. A proof spent at one is refused at the other, at the token endpoint and at validate_jwt_token,
 * and of one proof sent to both at once exactly one passes (the primary key of used_dpop_proofs decides).
 * On PostgreSQL and on one SQLite file.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { admin, type Registered } from './client-auth-support.ts';
import { dpopKey, dpopProof, type DpopKey } from './dpop-support.ts';
import { CALLBACK, authorize, codeFrom, pkcePair, signedInBrowser, tokenRequest } from './authorize-support.ts';
import { CLIENT_ID } from '../support/app.ts';

const API_URL = 'https://api.example.com/orders';

async function validate(server: TestServer, input: Record<string, unknown>) {
  const res = await fetch(`${server.baseUrl}/v1/validate_jwt_token`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:8080' }, body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const KINDS: TestDatabaseKind[] = ['postgres', 'sqlite'];

async function clientToken(server: TestServer, client: Registered, proof: string) {
  const res = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`,
      dpop: proof,
    },
    body: 'grant_type=client_credentials',
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

for (const kind of KINDS) {
  describe(`DPoP proof replay across two instances (${kind})`, () => {
    let db: TestDatabase;
    let first: TestServer;
    let second: TestServer;
    let client: Registered;
    let key: DpopKey;
    before(async () => {
      db = await createTestDatabase(kind);
      first = await startServer([...db.flags, '--redirect-uris', CALLBACK]);
      second = await startServer([...db.flags, '--redirect-uris', CALLBACK]);
      client = await admin(first).create(['jobs:read']);
      key = await dpopKey();
    });
    after(async () => {
      await second?.close();
      await first?.close();
      await db?.cleanup();
    });

    test('a proof spent at one instance is refused at the other', async () => {
      const proof = await dpopProof(key);
      const spent = await clientToken(first, client, proof);
      assert.equal(spent.status, 200, JSON.stringify(spent.body));
      const replayed = await clientToken(second, client, proof);
      assert.equal(replayed.status, 400);
      assert.equal(replayed.body.error, 'invalid_dpop_proof');
      assert.match(replayed.body.error_description, /already used/);
    });

    test('one proof sent to both at once passes exactly once', async () => {
      for (let round = 0; round < 5; round++) {
        const proof = await dpopProof(key);
        const answers = await Promise.all([clientToken(first, client, proof), clientToken(second, client, proof)]);
        assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400], JSON.stringify(answers.map((a) => a.body)));
      }
    });

    test('a resource server\'s proof passed to validate_jwt_token at one instance is refused at the other', async () => {
      const browser = await signedInBrowser(first);
      const { verifier, challenge } = pkcePair();
      const res = await authorize(first, {
        client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'code', state: 'st', code_challenge: challenge, scope: 'openid',
      }, browser.cookie);
      const issued = await tokenRequest(first, { grant_type: 'authorization_code', code: await codeFrom(res, 'st'), code_verifier: verifier, redirect_uri: CALLBACK, client_id: CLIENT_ID },
        { dpop: await dpopProof(key) });
      const token = issued.body.access_token;
      const proof = await dpopProof(key, { htm: 'GET', htu: API_URL, accessToken: token });
      const input = { token_type: 'access_token', token, dpop_proof: proof, http_method: 'GET', http_uri: API_URL };
      assert.equal((await validate(first, input)).status, 200);
      const replayed = await validate(second, input);
      assert.equal(replayed.status, 401);
      assert.match(replayed.body.message, /already used/);
    });
  });
}
