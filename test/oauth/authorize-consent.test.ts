/**
 * Consent for clients registered with consent_required (OpenID Connect Core section 3.1.2.4), through the
 * operations the login UI's consent screen calls: the request waits server side, only its own user sees and
 * decides it, approval is remembered per user and client (and revocable), denial answers access_denied in
 * the request's response mode. First-party clients never ask.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import {
  CALLBACK, authorize, callAs, codeFrom, createClient, pkcePair, redirectParams, signedInBrowser, type Browser, type RegisteredClient,
} from './authorize-support.ts';

const ISSUER = 'http://127.0.0.1:8080';

describe('consent for consent_required clients', () => {
  let server: TestServer;
  let client: RegisteredClient;
  let firstParty: RegisteredClient;
  before(async () => {
    server = await startServer();
    client = await createClient(server, { name: 'Third Party App', redirect_uris: [CALLBACK], consent_required: true });
    firstParty = await createClient(server, { name: 'Own App', redirect_uris: [CALLBACK] });
  });
  after(() => server.close());

  const params = (clientId: string, extra: Record<string, string> = {}) => ({
    client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', state: 'st', code_challenge: pkcePair().challenge,
    scope: 'openid email', ...extra,
  });

  /** /authorize sends the browser to the consent screen; answers the request id. */
  async function consentRequest(browser: Browser, extra: Record<string, string> = {}): Promise<string> {
    const { url } = redirectParams(await authorize(server, params(client.clientId, extra), browser.cookie));
    assert.equal(`${url.origin}${url.pathname}`, `${ISSUER}/app/consent`);
    const id = url.searchParams.get('request');
    assert.ok(id && id.length >= 43);
    return id;
  }

  test('a first-party registered client gets its code at once', async () => {
    const browser = await signedInBrowser(server);
    await codeFrom(await authorize(server, params(firstParty.clientId), browser.cookie), 'st');
  });

  test('prompt=none without consent answers consent_required', async () => {
    const browser = await signedInBrowser(server);
    const { params: answer } = redirectParams(await authorize(server, params(client.clientId, { prompt: 'none' }), browser.cookie));
    assert.equal(answer.get('error'), 'consent_required');
    assert.equal(answer.get('state'), 'st');
  });

  test('approve: the screen sees client and scopes, the resume URL yields a code, consent is remembered and revocable', async () => {
    const browser = await signedInBrowser(server);
    const requestId = await consentRequest(browser);
    const shown = await callAs(server, browser, 'authorization_request', { request_id: requestId });
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.deepEqual(shown.body, { client_id: client.clientId, client_name: 'Third Party App', scopes: ['openid', 'email'], redirect_host: '127.0.0.1:3000' });

    const decided = await callAs(server, browser, 'decide_authorization_request', { request_id: requestId, approve: true });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const resume = new URL(decided.body.redirect_uri);
    assert.equal(`${resume.origin}${resume.pathname}`, `${ISSUER}/authorize`);
    await codeFrom(await authorize(server, Object.fromEntries(resume.searchParams), browser.cookie), 'st');
    const replay = await callAs(server, browser, 'decide_authorization_request', { request_id: requestId, approve: true });
    assert.equal(replay.status, 404, 'a decided request is gone');

    // Remembered: the next request with the same scopes goes straight through, a wider one asks again.
    await codeFrom(await authorize(server, params(client.clientId), browser.cookie), 'st');
    await consentRequest(browser, { scope: 'openid email profile' });

    const listed = await callAs(server, browser, 'consents');
    assert.equal(listed.status, 200);
    assert.equal(listed.body.consents.length, 1);
    assert.deepEqual([listed.body.consents[0].client_id, listed.body.consents[0].client_name, listed.body.consents[0].scopes], [client.clientId, 'Third Party App', ['openid', 'email']]);
    assert.equal(typeof listed.body.consents[0].created_at, 'number');

    const revoked = await callAs(server, browser, 'revoke_consent', { client_id: client.clientId });
    assert.equal(revoked.status, 200);
    await consentRequest(browser);
    assert.equal((await callAs(server, browser, 'consents')).body.consents.length, 0);
  });

  test('another user cannot read or decide the request; anonymous callers are refused', async () => {
    const owner = await signedInBrowser(server);
    const requestId = await consentRequest(owner);
    const intruder = await signedInBrowser(server);
    assert.equal((await callAs(server, intruder, 'authorization_request', { request_id: requestId })).status, 404);
    assert.equal((await callAs(server, intruder, 'decide_authorization_request', { request_id: requestId, approve: true })).status, 404);
    const anonymous = await callAs(server, { ...owner, cookie: '' }, 'authorization_request', { request_id: requestId });
    assert.equal(anonymous.status, 401);
    assert.equal((await callAs(server, owner, 'authorization_request', { request_id: requestId })).status, 200, 'still there for its owner');
  });

  test('deny (query mode): the client hears access_denied with its state and iss', async () => {
    const browser = await signedInBrowser(server);
    const requestId = await consentRequest(browser);
    const decided = await callAs(server, browser, 'decide_authorization_request', { request_id: requestId, approve: false });
    const url = new URL(decided.body.redirect_uri);
    assert.equal(`${url.origin}${url.pathname}`, CALLBACK);
    assert.deepEqual([url.searchParams.get('error'), url.searchParams.get('state'), url.searchParams.get('iss')], ['access_denied', 'st', ISSUER]);
  });

  test('deny (form_post): the resume URL renders the refusal page for the owner only, once', async () => {
    const browser = await signedInBrowser(server);
    const requestId = await consentRequest(browser, { response_mode: 'form_post' });
    const decided = await callAs(server, browser, 'decide_authorization_request', { request_id: requestId, approve: false });
    const resume = new URL(decided.body.redirect_uri);
    assert.equal(`${resume.origin}${resume.pathname}`, `${ISSUER}/authorize`);
    const path = `/authorize${resume.search}`;
    const stranger = await signedInBrowser(server);
    const refused = await fetch(server.baseUrl + path, { headers: { cookie: stranger.cookie }, redirect: 'manual' });
    assert.equal(refused.status, 400);
    const page = await fetch(server.baseUrl + path, { headers: { cookie: browser.cookie }, redirect: 'manual' });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, new RegExp(`action="${CALLBACK}"`));
    assert.ok(html.includes('name="error" value="access_denied"'));
    assert.ok(html.includes('name="state" value="st"'));
    const again = await fetch(server.baseUrl + path, { headers: { cookie: browser.cookie }, redirect: 'manual' });
    assert.equal(again.status, 400, 'answered once');
  });
});
