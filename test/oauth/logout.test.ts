/**
 * GET and POST /logout over real HTTP (docs/api-overview.md#http-endpoints-outside-v1; OpenID Connect RP-Initiated Logout 1.0
 * sections 2 and 3): a matching id_token_hint ends the session at once (row and tokens revoked, both cookies
 * cleared); without one the user is asked, and only the confirmation form of this page ends it (logout CSRF);
 * redirects go only to a target registered for the client named by client_id or by the hint, with state
 * passed back; anything else gets the "signed out" page on this server, never a redirect.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { createUser, login } from '../tokens/support.ts';
import { signToken, issuerOf } from '../../server/modules/tokens/index.ts';
import type { UserRow } from '../../server/modules/users/user.entity.ts';

const CANONICAL = 'http://127.0.0.1:8080';
const INSTANCE_TARGET = 'https://app.example.test/signed-out?from=idp';
const CLIENT_TARGET = 'https://rp.example.test/logged-out';

describe('/logout', () => {
  let server: TestServer;
  const clock = new TestClock();
  let registered: { id: string; client_id: string };
  let other: { id: string; client_id: string };

  const admin = (op: string, body: unknown) => adminClient(server).ok(op, body);

  before(async () => {
    server = await startServer(['--redirect-uris', INSTANCE_TARGET], { clock });
    // A registered client's logout targets are its post_logout_redirect_uris (post-logout-redirect-uris.test.ts).
    registered = (await admin('create_client', { name: 'RP', post_logout_redirect_uris: [CLIENT_TARGET] })).client;
    other = (await admin('create_client', { name: 'Other RP', post_logout_redirect_uris: ['https://other.example.test/bye'] })).client;
  });
  after(() => server.close());

  const signIn = async (user?: UserRow) => {
    const who = user ?? (await createUser(server.app));
    const { tokens, sessionToken } = await login(server.app, who);
    return { user: who, tokens, cookie: `cookie_session=${sessionToken}` };
  };
  const logoutGet = (query: Record<string, string>, cookie?: string) =>
    fetch(`${server.baseUrl}/logout?${new URLSearchParams(query)}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const logoutPost = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
  /** Whether the access token of the session still opens /userinfo (its record is revoked with the session). */
  const sessionLive = async (accessToken: string) =>
    (await fetch(`${server.baseUrl}/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status === 200;
  const clearedCookies = (res: Response) =>
    res.headers.getSetCookie().filter((c) => /Max-Age=0/i.test(c)).map((c) => c.split('=')[0]).sort();
  /** The confirmation form's hidden fields, read from the page as a browser would submit them. */
  const formFields = (html: string) =>
    Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));
  const idToken = (claims: Record<string, unknown>) => {
    const now = Math.floor(clock.now().getTime() / 1000);
    return signToken(server.app.deps.keys, { iss: issuerOf(server.app.deps.config), iat: now, exp: now + 1800, token_type: 'id_token', ...claims });
  };

  test('a matching id_token_hint ends the session at once, clears both cookies and returns to the allowed target with state', async () => {
    const { tokens, cookie } = await signIn();
    assert.equal(await sessionLive(tokens.access_token), true);
    const res = await logoutGet({ id_token_hint: tokens.id_token, post_logout_redirect_uri: INSTANCE_TARGET, state: 'af0 ifjsldkj' }, cookie);
    assert.equal(res.status, 303);
    const location = new URL(res.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, 'https://app.example.test/signed-out');
    assert.equal(location.searchParams.get('from'), 'idp', 'the target keeps its own query');
    assert.equal(location.searchParams.get('state'), 'af0 ifjsldkj');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.deepEqual(clearedCookies(res), ['cookie_session', 'cookie_session_domain']);
    assert.equal(await sessionLive(tokens.access_token), false, 'the session and its tokens are revoked');
  });

  test('the specification\'s redirect_uri works like post_logout_redirect_uri', async () => {
    const { tokens, cookie } = await signIn();
    const res = await logoutGet({ id_token_hint: tokens.id_token, redirect_uri: INSTANCE_TARGET }, cookie);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), INSTANCE_TARGET);
    assert.equal(await sessionLive(tokens.access_token), false);
  });

  test('without a hint the user is asked; only the page\'s own confirmation ends the session', async () => {
    const { tokens, cookie } = await signIn();
    const asked = await logoutGet({ post_logout_redirect_uri: INSTANCE_TARGET, state: 's1' }, cookie);
    assert.equal(asked.status, 200);
    assert.match(asked.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(asked.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(asked.headers.get('content-security-policy') ?? '', /form-action 'self' https:\/\/app\.example\.test/);
    assert.deepEqual(asked.headers.getSetCookie(), [], 'nothing is cleared before the user confirms');
    const html = await asked.text();
    assert.match(html, /<form method="post" action="logout">/);
    assert.equal(await sessionLive(tokens.access_token), true, 'a bare GET (an <img> on any page) does not sign anyone out');

    const fields = formFields(html);
    assert.equal(fields.post_logout_redirect_uri, INSTANCE_TARGET);
    assert.equal(fields.state, 's1');
    const forged = await logoutPost({ ...fields, confirmation: 'f'.repeat(64) }, { cookie, origin: 'https://evil.example.test' });
    assert.equal(forged.status, 200, 'a wrong confirmation only asks again');
    assert.equal(await sessionLive(tokens.access_token), true);
    const other = await signIn();
    const crossed = await logoutPost(fields, { cookie: other.cookie, origin: CANONICAL });
    assert.equal(crossed.status, 200, 'a confirmation is bound to the session cookie it was made for');
    assert.equal(await sessionLive(other.tokens.access_token), true);

    const confirmed = await logoutPost(fields, { cookie, origin: CANONICAL });
    assert.equal(confirmed.status, 303);
    assert.equal(new URL(confirmed.headers.get('location')!).searchParams.get('state'), 's1');
    assert.deepEqual(clearedCookies(confirmed), ['cookie_session', 'cookie_session_domain']);
    assert.equal(await sessionLive(tokens.access_token), false);
  });

  test('a hint of another user asks too (section 2), and the session stays until confirmed', async () => {
    const mine = await signIn();
    const theirs = await signIn();
    const res = await logoutGet({ id_token_hint: theirs.tokens.id_token }, mine.cookie);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Sign out of/);
    assert.equal(await sessionLive(mine.tokens.access_token), true);
    assert.equal(await sessionLive(theirs.tokens.access_token), true);
  });

  test('a relying party may POST the logout request from its own origin with its hint', async () => {
    const { tokens, cookie } = await signIn();
    const res = await logoutPost({ id_token_hint: tokens.id_token, post_logout_redirect_uri: INSTANCE_TARGET }, { cookie, origin: 'https://app.example.test' });
    assert.equal(res.status, 303);
    assert.equal(await sessionLive(tokens.access_token), false);
  });

  test('an expired hint is still accepted; a forged one, an access token or another issuer\'s token is refused without signing out', async () => {
    const expired = await signIn();
    clock.advance(3 * 3600);
    try {
      const res = await logoutGet({ id_token_hint: expired.tokens.id_token }, expired.cookie);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /You are signed out/);
      assert.deepEqual(clearedCookies(res), ['cookie_session', 'cookie_session_domain']);
    } finally {
      clock.advance(-3 * 3600);
    }

    const { user, tokens, cookie } = await signIn();
    const [header, payload, signature] = tokens.id_token.split('.');
    const forged = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const hint of [forged, tokens.access_token, 'not-a-jwt', idToken({ sub: user.id, aud: CLIENT_ID, iss: 'https://evil.example.test' })]) {
      const res = await logoutGet({ id_token_hint: hint, post_logout_redirect_uri: INSTANCE_TARGET }, cookie);
      assert.equal(res.status, 400, hint.slice(0, 20));
      assert.equal(res.headers.get('location'), null);
      assert.match(await res.text(), /cannot be used/);
    }
    assert.equal(await sessionLive(tokens.access_token), true);
  });

  test('a target that is not allowed is never followed: the session still ends and the page says why', async () => {
    const { tokens, cookie } = await signIn();
    for (const target of ['https://evil.example.test/', 'javascript:alert(1)', `${INSTANCE_TARGET}&extra=1`, '//evil.example.test']) {
      const res = await logoutGet({ post_logout_redirect_uri: target }, undefined);
      assert.equal(res.status, 200, target);
      assert.equal(res.headers.get('location'), null);
      assert.match(await res.text(), /does not allow/);
    }
    const res = await logoutGet({ id_token_hint: tokens.id_token, post_logout_redirect_uri: 'https://evil.example.test/' }, cookie);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('location'), null);
    assert.equal(await sessionLive(tokens.access_token), false);
  });

  test('a registered client returns only to its own registered URIs, named by client_id or by the hint\'s azp', async () => {
    const byClientId = await logoutGet({ client_id: registered.client_id, post_logout_redirect_uri: CLIENT_TARGET, state: 'x' });
    assert.equal(byClientId.status, 303, 'without a session there is nothing to confirm');
    assert.equal(byClientId.headers.get('location'), `${CLIENT_TARGET}?state=x`);

    const foreign = await logoutGet({ client_id: other.client_id, post_logout_redirect_uri: CLIENT_TARGET });
    assert.equal(foreign.status, 200, 'another client\'s URI is not this client\'s');
    assert.equal(foreign.headers.get('location'), null);
    const instanceTargetForClient = await logoutGet({ client_id: registered.client_id, post_logout_redirect_uri: INSTANCE_TARGET });
    assert.equal(instanceTargetForClient.headers.get('location'), null, 'the instance allow-list does not apply to a registered client');
    const unknown = await logoutGet({ client_id: 'no-such-client', post_logout_redirect_uri: CLIENT_TARGET });
    assert.equal(unknown.headers.get('location'), null);

    const { user, cookie, tokens } = await signIn();
    const hint = idToken({ sub: user.id, aud: registered.client_id, azp: registered.client_id });
    const viaHint = await logoutGet({ id_token_hint: hint, post_logout_redirect_uri: CLIENT_TARGET }, cookie);
    assert.equal(viaHint.status, 303);
    assert.equal(viaHint.headers.get('location'), CLIENT_TARGET);
    assert.equal(await sessionLive(tokens.access_token), false);

    const mismatch = await logoutGet({ id_token_hint: hint, client_id: other.client_id });
    assert.equal(mismatch.status, 400, 'client_id must agree with the hint');

    await admin('update_client', { id: registered.id, is_active: false });
    try {
      const inactive = await logoutGet({ client_id: registered.client_id, post_logout_redirect_uri: CLIENT_TARGET });
      assert.equal(inactive.headers.get('location'), null, 'an inactive client gets no redirect');
    } finally {
      await admin('update_client', { id: registered.id, is_active: true });
    }
  });

  test('no session: a dead cookie is cleared and an allowed target is followed at once; no target gives the signed-out page', async () => {
    const res = await logoutGet({ redirect_uri: INSTANCE_TARGET }, 'cookie_session=stale-value');
    assert.equal(res.status, 303);
    assert.deepEqual(clearedCookies(res), ['cookie_session', 'cookie_session_domain']);
    const bare = await logoutGet({});
    assert.equal(bare.status, 200);
    assert.equal(bare.headers.get('cache-control'), 'no-store');
    assert.match(await bare.text(), /You are signed out/);
  });

  test('hostile input gets a 400 page: repeated parameters, control characters, oversized values, a broken body', async () => {
    const repeated = await fetch(`${server.baseUrl}/logout?state=a&state=b`, { redirect: 'manual' });
    assert.equal(repeated.status, 400);
    assert.match(repeated.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal((await logoutGet({ state: 'a\u0000b' })).status, 400);
    assert.equal((await logoutGet({ post_logout_redirect_uri: `https://app.example.test/${'a'.repeat(3000)}` })).status, 400);
    const escaped = await logoutGet({ state: '"><script>alert(1)</script>', client_id: CLIENT_ID }, (await signIn()).cookie);
    const html = await escaped.text();
    assert.ok(!html.includes('<script>'), 'values are escaped in the confirmation page');
    const badJson = await fetch(`${server.baseUrl}/logout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    assert.equal(badJson.status, 400);
    assert.match(badJson.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('discovery advertises the end_session_endpoint', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(doc.end_session_endpoint, `${CANONICAL}/logout`);
  });
});
