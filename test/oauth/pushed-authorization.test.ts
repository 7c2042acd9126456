/**
 * Pushed Authorization Requests (RFC 9126): openid-client 6 pushes with buildAuthorizationUrlWithPAR and
 * runs the whole code flow (its ID token checked by openid-client); then the abuse cases: a request_uri used
 * again after its answer, one past its expires_in, one of another client, parameters given beside a
 * request_uri (ignored, RFC 9126 section 4), a client registered with require_pushed_authorization_requests
 * refused without one, the resume after sign-in carrying no parameters, refusals of the push itself in
 * RFC 6749 section 5.2 JSON, and a flood of pushes from one client stopped at its cap of live requests (429).
 * On SQLite, PostgreSQL and MariaDB.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { registerClient, signUpAndLogIn, startOidcServer } from '../support/oidc-server.ts';
import { basicAuth, pkcePair } from './authorize-support.ts';
import { PushedAuthorizationRequest } from '../../server/modules/oauth/pushed-request.entity.ts';
import { MAX_LIVE_PUSHES_PER_CLIENT } from '../../server/modules/oauth/pushed-requests.ts';

const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];
const CALLBACK = 'http://127.0.0.1:3999/callback';

for (const kind of KINDS) {
  describe(`pushed authorization requests, RFC 9126 (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let rp: client.Configuration;
    let registered: { id: string; clientId: string; secret: string };
    const clock = new TestClock();

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startOidcServer(db.flags, { clock });
      registered = await registerClient(server, { name: 'Pushing RP', redirect_uris: [CALLBACK] });
      rp = await client.discovery(new URL(server.baseUrl), registered.clientId, undefined, client.ClientSecretBasic(registered.secret), {
        execute: [client.allowInsecureRequests],
      });
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    /** POST /oauth/par as a client, with the form fields given. */
    async function push(fields: Record<string, string>, who = registered) {
      const res = await fetch(`${server.baseUrl}/oauth/par`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...basicAuth(who.clientId, who.secret) },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any>, cacheControl: res.headers.get('cache-control') };
    }

    function authorizeUrl(params: Record<string, string>): string {
      return `${server.baseUrl}/authorize?${new URLSearchParams(params)}`;
    }

    function get(url: string, cookie?: string): Promise<Response> {
      return fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    }

    /** An operation as the signed-in browser, from the server's own origin (the CSRF rule). */
    async function decide(cookie: string, body: Record<string, unknown>) {
      const res = await fetch(`${server.baseUrl}/v1/decide_authorization_request`, {
        method: 'POST',
        headers: { origin: server.baseUrl, 'content-type': 'application/json', cookie },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    }

    function codeRequest(state = 'st-1') {
      const pkce = pkcePair();
      return { pkce, fields: { redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email', state, code_challenge: pkce.challenge, code_challenge_method: 'S256' } };
    }

    test('discovery advertises the PAR endpoint and that pushing is not required server-wide', () => {
      const metadata = rp.serverMetadata();
      assert.equal(metadata.pushed_authorization_request_endpoint, `${server.baseUrl}/oauth/par`);
      assert.equal(metadata.require_pushed_authorization_requests, false);
    });

    test('openid-client buildAuthorizationUrlWithPAR: the code flow completes and the ID token passes its checks', async () => {
      const browser = await signUpAndLogIn(server);
      const pkceCodeVerifier = client.randomPKCECodeVerifier();
      const expectedState = client.randomState();
      const expectedNonce = client.randomNonce();
      const url = await client.buildAuthorizationUrlWithPAR(rp, {
        redirect_uri: CALLBACK,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
        code_challenge_method: 'S256',
        state: expectedState,
        nonce: expectedNonce,
      });
      assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri'], 'only client_id and request_uri travel on the URL');
      assert.match(url.searchParams.get('request_uri')!, /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
      const res = await get(url.href, browser.cookie);
      assert.equal(res.status, 302, await res.clone().text());
      const callback = new URL(res.headers.get('location')!);
      assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK);
      const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier, expectedState, expectedNonce, idTokenExpected: true });
      assert.equal(tokens.claims()!.sub, browser.userId);
      assert.equal(tokens.claims()!.nonce, expectedNonce);

      const again = await get(url.href, browser.cookie);
      assert.equal(again.status, 400, 'a request_uri is spent by its answer: used twice, it is refused');
      assert.match(await again.text(), /request_uri is unknown, expired, already used/);
    });

    test('the push answers 201 with a request_uri and expires_in of at most 90 s, not cached', async () => {
      const pushed = await push(codeRequest().fields);
      assert.equal(pushed.status, 201, JSON.stringify(pushed.body));
      assert.ok(pushed.body.expires_in > 0 && pushed.body.expires_in <= 90);
      assert.match(pushed.cacheControl ?? '', /no-store/);
    });

    test('a flood of pushes from one client stops at its cap of live requests with 429; other clients push on; expired ones free the cap', async () => {
      const flooder = await registerClient(server, { name: 'Flooding RP', redirect_uris: [CALLBACK] });
      const live = () => server.app.deps.storage.fork().count(PushedAuthorizationRequest, { clientId: flooder.clientId, expiresAt: { $gt: clock.now() } });
      // All but three of the cap are already waiting (written directly: a thousand HTTP pushes would only be slower).
      const now = clock.now();
      await server.app.deps.storage.fork().insertMany(PushedAuthorizationRequest, Array.from({ length: MAX_LIVE_PUSHES_PER_CLIENT - 3 }, (_, i) => ({
        id: String(i).padStart(64, 'f'), clientId: flooder.clientId, params: { response_type: 'code' }, createdAt: now, opened: false,
        expiresAt: new Date(now.getTime() + 60_000),
      })));
      for (let i = 0; i < 3; i++) assert.equal((await push(codeRequest().fields, flooder)).status, 201, `push ${i + 1} within the cap`);
      const refused = await push(codeRequest().fields, flooder);
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.error, 'invalid_request');
      assert.match(refused.body.error_description, /too many pushed authorization requests/);
      assert.equal(refused.body.request_uri, undefined);
      assert.match(refused.cacheControl ?? '', /no-store/);
      assert.equal(await live(), MAX_LIVE_PUSHES_PER_CLIENT, 'the refused push stored nothing');
      assert.equal((await push(codeRequest().fields)).status, 201, 'another client is not held by this one\'s cap');
      // Once the waiting ones expire they no longer count, whether or not the sweep has deleted them yet.
      clock.advance(61);
      try {
        assert.equal((await push(codeRequest().fields, flooder)).status, 201);
        assert.equal(await live(), 1);
      } finally {
        clock.advance(-61);
        await server.app.deps.storage.fork().nativeDelete(PushedAuthorizationRequest, { clientId: flooder.clientId });
      }
    });

    test('a request_uri past its expires_in is refused', async () => {
      const browser = await signUpAndLogIn(server);
      const pushed = await push(codeRequest().fields);
      clock.advance(pushed.body.expires_in + 1);
      try {
        const res = await get(authorizeUrl({ client_id: registered.clientId, request_uri: pushed.body.request_uri }), browser.cookie);
        assert.equal(res.status, 400);
        assert.equal(res.headers.get('location'), null, 'nothing is sent to a redirect_uri');
      } finally {
        clock.advance(-(pushed.body.expires_in + 1));
      }
    });

    test('another client\'s request_uri is refused, and so is a request_uri with no client_id', async () => {
      const browser = await signUpAndLogIn(server);
      const other = await registerClient(server, { name: 'Other RP', redirect_uris: [CALLBACK] });
      const pushed = await push(codeRequest().fields);
      const asOther = await get(authorizeUrl({ client_id: other.clientId, request_uri: pushed.body.request_uri }), browser.cookie);
      assert.equal(asOther.status, 400);
      const anonymous = await get(authorizeUrl({ request_uri: pushed.body.request_uri }), browser.cookie);
      assert.equal(anonymous.status, 400);
      // The refusals did not spend it: its own client still gets its code.
      const own = await get(authorizeUrl({ client_id: registered.clientId, request_uri: pushed.body.request_uri }), browser.cookie);
      assert.equal(own.status, 302);
      assert.ok(new URL(own.headers.get('location')!).searchParams.get('code'));
    });

    test('parameters beside a request_uri are ignored: the pushed state and scope are the ones used', async () => {
      const browser = await signUpAndLogIn(server);
      const pushed = await push(codeRequest('pushed-state').fields);
      const res = await get(authorizeUrl({
        client_id: registered.clientId, request_uri: pushed.body.request_uri,
        state: 'added-state', redirect_uri: 'https://attacker.example/cb', scope: 'openid offline_access', response_type: 'token',
      }), browser.cookie);
      assert.equal(res.status, 302);
      const location = new URL(res.headers.get('location')!);
      assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
      assert.equal(location.searchParams.get('state'), 'pushed-state');
      assert.ok(location.searchParams.get('code'), 'the pushed response_type code, not the token added on the URL');
    });

    test('the push is validated as /authorize validates: bad requests are RFC 6749 section 5.2 JSON', async () => {
      const { fields } = codeRequest();
      const unregistered = await push({ ...fields, redirect_uri: 'https://elsewhere.example/cb' });
      assert.equal(unregistered.status, 400);
      assert.equal(unregistered.body.error, 'invalid_request');
      const noPkce = await push({ ...fields, code_challenge: '' });
      assert.equal(noPkce.body.error, 'invalid_request');
      assert.match(noPkce.body.error_description, /code_challenge/);
      const badScope = await push({ ...fields, scope: 'openid admin:everything' });
      assert.equal(badScope.body.error, 'invalid_scope');
      const nested = await push({ ...fields, request_uri: 'urn:ietf:params:oauth:request_uri:x' });
      assert.equal(nested.body.error, 'invalid_request');
      const wrongSecret = await push(fields, { ...registered, secret: 'not-the-secret' });
      assert.equal(wrongSecret.status, 401);
      assert.equal(wrongSecret.body.error, 'invalid_client');
      const otherId = await push({ ...fields, client_id: 'someone-else' });
      assert.equal(otherId.body.error, 'invalid_client', 'a client_id other than the authenticated one');
    });

    test('a signed-out browser is sent to sign in and resumes with client_id and request_uri only', async () => {
      const pushed = await push(codeRequest('resume-state').fields);
      const res = await get(authorizeUrl({ client_id: registered.clientId, request_uri: pushed.body.request_uri }));
      assert.equal(res.status, 302);
      const toLogin = new URL(res.headers.get('location')!);
      const resume = new URL(toLogin.searchParams.get('redirect_uri')!);
      assert.equal(resume.pathname, '/authorize');
      assert.deepEqual([...resume.searchParams.keys()].sort(), ['client_id', 'request_uri']);
      // Signing in takes longer than the push's expires_in: the opened request stays until answered.
      clock.advance(pushed.body.expires_in + 30);
      try {
        const browser = await signUpAndLogIn(server);
        const back = await get(resume.href, browser.cookie);
        assert.equal(back.status, 302);
        const callback = new URL(back.headers.get('location')!);
        assert.equal(callback.searchParams.get('state'), 'resume-state');
        assert.ok(callback.searchParams.get('code'));
      } finally {
        clock.advance(-(pushed.body.expires_in + 30));
      }
    });

    test('prompt=login pushed: the forced sign-in rewrites the stored request, so the resume does not loop', async () => {
      const browser = await signUpAndLogIn(server);
      const pushed = await push({ ...codeRequest('login-state').fields, prompt: 'login' });
      const res = await get(authorizeUrl({ client_id: registered.clientId, request_uri: pushed.body.request_uri }), browser.cookie);
      assert.equal(res.status, 302);
      const resume = new URL(new URL(res.headers.get('location')!).searchParams.get('redirect_uri')!);
      assert.deepEqual([...resume.searchParams.keys()].sort(), ['client_id', 'request_uri']);
      clock.advance(2);
      try {
        const again = await signUpAndLogIn(server);
        const back = await get(resume.href, again.cookie);
        assert.equal(back.status, 302);
        const callback = new URL(back.headers.get('location')!);
        assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK, 'the fresh login gets its code instead of another sign-in');
        assert.equal(callback.searchParams.get('state'), 'login-state');
      } finally {
        clock.advance(-2);
      }
    });

    test('consent: approving a pushed prompt=consent request resumes by request_uri once; denying spends it', async () => {
      const thirdParty = await registerClient(server, { name: 'Third party', redirect_uris: [CALLBACK], consent_required: true });
      const browser = await signUpAndLogIn(server);
      const consentRequest = async (state: string) => {
        const pushed = await push({ ...codeRequest(state).fields, prompt: 'consent' }, thirdParty);
        const uri = authorizeUrl({ client_id: thirdParty.clientId, request_uri: pushed.body.request_uri });
        const res = await get(uri, browser.cookie);
        const toConsent = new URL(res.headers.get('location')!);
        assert.equal(toConsent.pathname, '/app/consent');
        return { uri, requestId: toConsent.searchParams.get('request')! };
      };
      const approved = await consentRequest('consent-state');
      const decided = await decide(browser.cookie, { request_id: approved.requestId, approve: true });
      assert.equal(decided.status, 200, JSON.stringify(decided.body));
      const resume = new URL(decided.body.redirect_uri);
      assert.deepEqual([...resume.searchParams.keys()].sort(), ['client_id', 'request_uri']);
      const back = await get(resume.href, browser.cookie);
      const callback = new URL(back.headers.get('location')!);
      assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK, 'the stored prompt=consent was satisfied: no second consent screen');
      assert.equal(callback.searchParams.get('state'), 'consent-state');
      assert.ok(callback.searchParams.get('code'));

      const denied = await consentRequest('denied-state');
      const refusal = await decide(browser.cookie, { request_id: denied.requestId, approve: false });
      assert.equal(new URL(refusal.body.redirect_uri).searchParams.get('error'), 'access_denied');
      assert.equal((await get(denied.uri, browser.cookie)).status, 400, 'the denied request_uri is spent');
    });

    test('require_pushed_authorization_requests: the client\'s plain /authorize is refused, its pushed one served', async () => {
      const strict = await registerClient(server, { name: 'Strict pusher', redirect_uris: [CALLBACK], require_pushed_authorization_requests: true });
      const read = await adminClient(server).ok('client', { id: strict.id });
      assert.equal(read.require_pushed_authorization_requests, true);
      const browser = await signUpAndLogIn(server);
      const { fields } = codeRequest('strict-state');
      const plain = await get(authorizeUrl({ ...fields, client_id: strict.clientId }), browser.cookie);
      assert.equal(plain.status, 302);
      const refusal = new URL(plain.headers.get('location')!).searchParams;
      assert.equal(refusal.get('error'), 'invalid_request');
      assert.equal(refusal.get('code'), null);
      const pushed = await push(fields, strict);
      const viaPar = await get(authorizeUrl({ client_id: strict.clientId, request_uri: pushed.body.request_uri }), browser.cookie);
      assert.equal(viaPar.status, 302);
      assert.ok(new URL(viaPar.headers.get('location')!).searchParams.get('code'));
      await adminClient(server).ok('update_client', { id: strict.id, require_pushed_authorization_requests: false });
      const relaxed = await get(authorizeUrl({ ...codeRequest('relaxed').fields, client_id: strict.clientId }), browser.cookie);
      assert.ok(new URL(relaxed.headers.get('location')!).searchParams.get('code'), 'turned off, plain requests are served again');
    });
  });
}
