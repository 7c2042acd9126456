/**
 * Registered-client authentication at /oauth/token (RFC 6749 section 2.3.1) over real HTTP: client_secret_basic
 * and client_secret_post; wrong, unknown, missing and doubled credentials; inactive and deleted clients; the
 * rotation grace window on the test clock (the previous secret works inside it and is invalid_client after
 * it: a required proof); the in-memory cache invalidated on this instance by rotate (grace 0),
 * deactivate and delete; the instance client unchanged; and the failure limit per client_id and per IP.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { TestClock } from '../support/test-clock.ts';
import { admin, assertInvalidClient, basic, clientCredentials, oauthPost, post } from './client-auth-support.ts';

const GRACE_SECONDS = 600;

describe('registered client authentication', () => {
  const clock = new TestClock();
  let server: TestServer;
  before(async () => {
    server = await startServer(['--client-secret-rotation-grace', String(GRACE_SECONDS)], { clock });
  });
  after(() => server.close());

  test('the secret works as HTTP Basic and in the body; a wrong or foreign one is invalid_client', async () => {
    const registry = admin(server);
    const a = await registry.create();
    const b = await registry.create();
    assert.equal((await clientCredentials(server, basic(a))).status, 200);
    assert.equal((await clientCredentials(server, post(a))).status, 200);
    // Twice more: the second answer of each comes from the cache and must be the same.
    assert.equal((await clientCredentials(server, basic(a))).status, 200);
    assertInvalidClient(await clientCredentials(server, basic({ clientId: a.clientId, secret: b.secret })), true);
    assertInvalidClient(await clientCredentials(server, post({ clientId: a.clientId, secret: `${a.secret}x` })), false);
    assertInvalidClient(await clientCredentials(server, basic({ clientId: a.clientId, secret: a.secret.slice(1) })), true);
  });

  test('an unknown client_id and a registered one without a secret get the same answer as a wrong secret', async () => {
    const registry = admin(server);
    const a = await registry.create();
    const wrong = await clientCredentials(server, post({ clientId: a.clientId, secret: 'not-the-secret' }));
    const unknown = await clientCredentials(server, post({ clientId: 'no-such-client-id-0000000', secret: a.secret }));
    const bare = await clientCredentials(server, { id: a.clientId });
    for (const reply of [wrong, unknown, bare]) assertInvalidClient(reply, false);
    assert.equal(unknown.body.error_description, wrong.body.error_description);
    assert.equal(bare.body.error_description, wrong.body.error_description);
  });

  test('HTTP Basic together with a client_secret in the body is refused (one method per request)', async () => {
    const a = await admin(server).create();
    const reply = await oauthPost(server, '/oauth/token', { grant_type: 'client_credentials', client_secret: a.secret }, basic(a));
    assertInvalidClient(reply, true);
  });

  test('an inactive client is refused at once on this instance, and accepted again once active', async () => {
    const registry = admin(server);
    const a = await registry.create();
    assert.equal((await clientCredentials(server, basic(a))).status, 200, 'cached as accepted');
    await registry.setActive(a, false);
    assertInvalidClient(await clientCredentials(server, basic(a)), true);
    await registry.setActive(a, true);
    assert.equal((await clientCredentials(server, basic(a))).status, 200);
  });

  test('a deleted client is refused at once', async () => {
    const registry = admin(server);
    const a = await registry.create();
    assert.equal((await clientCredentials(server, post(a))).status, 200);
    await registry.remove(a);
    assertInvalidClient(await clientCredentials(server, post(a)), false);
  });

  test('after rotation the previous secret works inside the grace window and is invalid_client after it', async () => {
    const registry = admin(server);
    const a = await registry.create();
    assert.equal((await clientCredentials(server, basic(a))).status, 200, 'old secret cached before the rotation');
    const fresh = await registry.rotate(a);
    assert.equal((await clientCredentials(server, basic({ clientId: a.clientId, secret: fresh }))).status, 200);
    assert.equal((await clientCredentials(server, basic(a))).status, 200, 'inside the grace window');
    clock.advance(GRACE_SECONDS - 2);
    assert.equal((await clientCredentials(server, basic(a))).status, 200, 'just before the grace end');
    clock.advance(4);
    const after = await clientCredentials(server, basic(a));
    assertInvalidClient(after, true);
    assert.equal(after.body.error_description, 'client authentication failed');
    assert.equal((await clientCredentials(server, basic({ clientId: a.clientId, secret: fresh }))).status, 200, 'the new secret keeps working');
  });

  test('the instance client keeps its behaviour: client_id alone is public, its secret authenticates, a wrong one does not', async () => {
    const refresh = { grant_type: 'refresh_token', refresh_token: 'not-a-token' };
    // Public: gets past client authentication to the grant, which refuses the token itself.
    const publicCall = await oauthPost(server, '/oauth/token', refresh, { id: CLIENT_ID });
    assert.equal(publicCall.body.error, 'invalid_grant');
    const confidential = await oauthPost(server, '/oauth/token', refresh, { basic: [CLIENT_ID, CLIENT_SECRET] });
    assert.equal(confidential.body.error, 'invalid_grant');
    assertInvalidClient(await oauthPost(server, '/oauth/token', refresh, { basic: [CLIENT_ID, 'wrong'] }), true);
  });
});

describe('registered client secret rotation without a grace window', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--client-secret-rotation-grace', '0']);
  });
  after(() => server.close());

  test('the old secret is refused right after the rotation, although it was cached as accepted', async () => {
    const registry = admin(server);
    const a = await registry.create();
    assert.equal((await clientCredentials(server, post(a))).status, 200);
    assert.equal((await clientCredentials(server, post(a))).status, 200);
    const fresh = await registry.rotate(a);
    assertInvalidClient(await clientCredentials(server, post(a)), false);
    assert.equal((await clientCredentials(server, post({ clientId: a.clientId, secret: fresh }))).status, 200);
  });
});

describe('client authentication failure limit', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('after 30 failures from one IP, even a right secret is not checked until the window ends', async () => {
    const registry = admin(server);
    const victim = await registry.create();
    const other = await registry.create();
    for (let i = 0; i < 30; i++) {
      const reply = await clientCredentials(server, post({ clientId: victim.clientId, secret: `guess-${i}` }));
      assert.equal(reply.body.error_description, 'client authentication failed', `attempt ${i + 1}`);
    }
    const blocked = await clientCredentials(server, post(other));
    assertInvalidClient(blocked, false);
    assert.match(blocked.body.error_description, /too many failed client authentications/);
    const victimBlocked = await clientCredentials(server, post(victim));
    assert.match(victimBlocked.body.error_description, /too many failed client authentications/);
  });
});

describe('HTTP Basic credentials are form-urlencoded parts (RFC 6749 section 2.3.1)', () => {
  // A secret with every character the encoding changes: '+', '%', ':' and a space.
  const SECRET = 'a+b%20c:d e';
  let server: TestServer;
  before(async () => {
    server = await startServer(['--client-secret', SECRET]);
  });
  after(() => server.close());

  const basicHeader = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const refresh = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'not-a-token' }).toString();
  const call = (authorization: string) => fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
    body: refresh,
  }).then(async (res) => ({ status: res.status, body: await res.json() as { error: string } }));

  test('the encoded secret authenticates; sent raw, its "+" reads as a space and its "%20" as a space, so it does not', async () => {
    // Authenticated: client authentication passes and the grant refuses the token itself.
    assert.equal((await call(basicHeader(encodeURIComponent(CLIENT_ID), encodeURIComponent(SECRET)))).body.error, 'invalid_grant');
    // '+' for the space, as application/x-www-form-urlencoded writes it.
    const plusForSpace = encodeURIComponent(SECRET).replace(/%20/g, '+');
    assert.equal((await call(basicHeader(CLIENT_ID, plusForSpace))).body.error, 'invalid_grant');
    const raw = await call(basicHeader(CLIENT_ID, SECRET));
    assert.equal(raw.status, 401);
    assert.equal(raw.body.error, 'invalid_client');
  });

  test('a part that is not valid percent-encoding is taken as it is', async () => {
    const malformed = '%E0%A4%A+x';
    const other = await startServer(['--client-secret', malformed]);
    try {
      const res = await fetch(`${other.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicHeader(CLIENT_ID, malformed) },
        body: refresh,
      });
      assert.equal(((await res.json()) as { error: string }).error, 'invalid_grant');
    } finally {
      await other.close();
    }
  });
});
