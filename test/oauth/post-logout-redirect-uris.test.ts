/**
 * A registered client's post-logout targets are its own list, apart from its redirect URIs (OpenID Connect
 * RP-Initiated Logout 1.0 section 3.1 and the `post_logout_redirect_uris` client metadata of section 3.2),
 * compared by exact string (RFC 9700 section 2.1): /logout returns to a registered post-logout URI, and refuses
 * one that is only a redirect URI or differs by a trailing slash, a query, a fragment or letter case; a
 * post-logout URI is no /authorize target either. The list follows update_client at once.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { createUser, login } from '../tokens/support.ts';
import { issuerOf, signToken } from '../../server/modules/tokens/index.ts';
import { authorize, pkcePair, signedInBrowser } from './authorize-support.ts';

const CALLBACK = 'https://rp.example.test/callback';
const LOGGED_OUT = 'https://rp.example.test/logged-out';
const LOOPBACK_LOGGED_OUT = 'http://127.0.0.1:9000/bye';

describe('/logout and a client\'s post_logout_redirect_uris', () => {
  let server: TestServer;
  let client: { id: string; client_id: string };

  const admin = (op: string, body: unknown) => adminClient(server).ok(op, body);
  const logoutGet = (query: Record<string, string>, cookie?: string) =>
    fetch(`${server.baseUrl}/logout?${new URLSearchParams(query)}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const sessionLive = async (accessToken: string) =>
    (await fetch(`${server.baseUrl}/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status === 200;
  /** A signed-in user, and an ID token of this server issued to the client for that user (the logout hint). */
  const signedInWithClientHint = async () => {
    const user = await createUser(server.app);
    const { tokens, sessionToken } = await login(server.app, user);
    const now = Math.floor(Date.now() / 1000);
    const hint = await signToken(server.app.deps.keys, {
      iss: issuerOf(server.app.deps.config), iat: now, exp: now + 600, token_type: 'id_token', sub: user.id, aud: client.client_id, azp: client.client_id,
    });
    return { tokens, sessionToken, hint };
  };
  /** A refused target: the "signed out" page on this server, never a redirect. */
  const assertRefused = async (res: Response, what: string) => {
    assert.equal(res.status, 200, what);
    assert.equal(res.headers.get('location'), null, what);
    assert.match(await res.text(), /does not allow/, what);
  };

  before(async () => {
    server = await startServer();
    client = (await admin('create_client', {
      name: 'Relying party', redirect_uris: [CALLBACK], post_logout_redirect_uris: [LOGGED_OUT, LOOPBACK_LOGGED_OUT],
    })).client;
  });
  after(() => server.close());

  test('a registered post-logout URI is followed, named by client_id or by the hint, with state', async () => {
    const byClientId = await logoutGet({ client_id: client.client_id, post_logout_redirect_uri: LOGGED_OUT, state: 'st' });
    assert.equal(byClientId.status, 303);
    assert.equal(byClientId.headers.get('location'), `${LOGGED_OUT}?state=st`);
    const loopback = await logoutGet({ client_id: client.client_id, post_logout_redirect_uri: LOOPBACK_LOGGED_OUT });
    assert.equal(loopback.headers.get('location'), LOOPBACK_LOGGED_OUT);
    const legacyName = await logoutGet({ client_id: client.client_id, redirect_uri: LOGGED_OUT });
    assert.equal(legacyName.headers.get('location'), LOGGED_OUT, 'the specification\'s redirect_uri names a post-logout target too');

    const { tokens, sessionToken, hint } = await signedInWithClientHint();
    const viaHint = await logoutGet({ id_token_hint: hint, post_logout_redirect_uri: LOGGED_OUT }, `cookie_session=${sessionToken}`);
    assert.equal(viaHint.status, 303);
    assert.equal(viaHint.headers.get('location'), LOGGED_OUT);
    assert.equal(await sessionLive(tokens.access_token), false, 'the session ended');
  });

  test('a URI that is only a redirect URI is no logout target; the session still ends', async () => {
    await assertRefused(await logoutGet({ client_id: client.client_id, post_logout_redirect_uri: CALLBACK }), 'post_logout_redirect_uri');
    await assertRefused(await logoutGet({ client_id: client.client_id, redirect_uri: CALLBACK }), 'redirect_uri');

    const { tokens, sessionToken, hint } = await signedInWithClientHint();
    await assertRefused(await logoutGet({ id_token_hint: hint, post_logout_redirect_uri: CALLBACK }, `cookie_session=${sessionToken}`), 'with the hint');
    assert.equal(await sessionLive(tokens.access_token), false);
  });

  test('matching is exact: a trailing slash, a query, a fragment, letter case or a port are other URIs', async () => {
    for (const variant of [
      `${LOGGED_OUT}/`, `${LOGGED_OUT}?next=1`, `${LOGGED_OUT}?`, `${LOGGED_OUT}#x`, 'https://RP.example.test/logged-out',
      'https://rp.example.test/Logged-out', 'https://rp.example.test:443/logged-out', 'http://127.0.0.1:9001/bye', 'http://localhost:9000/bye',
    ]) {
      await assertRefused(await logoutGet({ client_id: client.client_id, post_logout_redirect_uri: variant }), variant);
    }
  });

  test('without a client named, a registered client\'s post-logout URI is not followed', async () => {
    await assertRefused(await logoutGet({ post_logout_redirect_uri: LOGGED_OUT }), 'no client_id nor hint');
  });

  test('a post-logout URI is not an /authorize target', async () => {
    const browser = await signedInBrowser(server);
    const res = await authorize(server, {
      client_id: client.client_id, redirect_uri: LOGGED_OUT, response_type: 'code', state: 's', code_challenge: pkcePair().challenge, code_challenge_method: 'S256',
    }, browser.cookie);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null, 'never redirected to a post-logout URI');
  });

  test('update_client replaces the list, and /logout follows it at once', async () => {
    const moved = 'https://rp.example.test/goodbye';
    const updated = await admin('update_client', { id: client.id, post_logout_redirect_uris: [moved] });
    assert.deepEqual(updated.post_logout_redirect_uris, [moved]);
    assert.deepEqual(updated.redirect_uris, [CALLBACK], 'the redirect URIs stay');
    try {
      assert.equal((await logoutGet({ client_id: client.client_id, post_logout_redirect_uri: moved })).headers.get('location'), moved);
      await assertRefused(await logoutGet({ client_id: client.client_id, post_logout_redirect_uri: LOGGED_OUT }), 'the replaced URI');
      const emptied = await admin('update_client', { id: client.id, post_logout_redirect_uris: [] });
      assert.deepEqual(emptied.post_logout_redirect_uris, []);
      await assertRefused(await logoutGet({ client_id: client.client_id, post_logout_redirect_uri: moved }), 'an empty list');
    } finally {
      await admin('update_client', { id: client.id, post_logout_redirect_uris: [LOGGED_OUT, LOOPBACK_LOGGED_OUT] });
    }
  });

  test('a client registered without the list has no post-logout target', async () => {
    const bare = (await admin('create_client', { name: 'No logout page', redirect_uris: [LOGGED_OUT] })).client;
    assert.deepEqual(bare.post_logout_redirect_uris, []);
    await assertRefused(await logoutGet({ client_id: bare.client_id, post_logout_redirect_uri: LOGGED_OUT }), 'redirect URI only');
  });
});
