/**
 * The device authorization grant (RFC 8628) over HTTP: a client the administrator enabled opens a request
 * at /oauth/device_authorization, the device polls /oauth/token (authorization_pending, slow_down,
 * access_denied, expired_token of section 3.5), a signed-in person approves with the user code through the
 * device page's operations, and the approved request is redeemed once for tokens naming the client as
 * audience. Wrong user codes lock the address and the session out (section 5.1).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { basicAuth, callAs, createClient, signedInBrowser, tokenRequest, type Browser, type RegisteredClient } from './authorize-support.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

async function deviceAuthorization(server: TestServer, client: RegisteredClient, fields: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}/oauth/device_authorization`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basicAuth(client.clientId, client.secret) },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

describe('device authorization grant', () => {
  let server: TestServer;
  let device: RegisteredClient;
  let other: RegisteredClient;
  let browser: Browser;
  const clock = new TestClock();

  before(async () => {
    server = await startServer([], { clock });
    device = await createClient(server, { name: 'Living Room TV', allowed_scopes: ['openid', 'email', 'profile', 'offline_access'] });
    other = await createClient(server, { name: 'Other Device' });
    const admin = adminClient(server);
    assert.deepEqual(await admin.ok('set_client_device_grant', { client_id: device.clientId, enabled: true }), { client_id: device.clientId, enabled: true });
    await admin.ok('set_client_device_grant', { client_id: other.clientId, enabled: true });
    browser = await signedInBrowser(server);
  });
  after(() => server.close());

  /** Polls once as `client`, one interval later than the last poll so slow_down does not answer. */
  async function poll(client: RegisteredClient, deviceCode: string, wait = 5) {
    clock.advance(wait);
    return tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: deviceCode }, basicAuth(client.clientId, client.secret));
  }

  test('the endpoint answers RFC 8628 section 3.2: codes, verification URIs, expires_in and interval', async () => {
    const { status, body, headers } = await deviceAuthorization(server, device, { scope: 'openid email' });
    assert.equal(status, 200, JSON.stringify(body));
    assert.match(body.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.ok(body.device_code.length >= 43);
    assert.equal(body.verification_uri, 'http://127.0.0.1:8080/app/device');
    assert.equal(body.verification_uri_complete, `http://127.0.0.1:8080/app/device?user_code=${body.user_code}`);
    assert.equal(body.expires_in, 600);
    assert.equal(body.interval, 5);
    assert.equal(headers.get('cache-control'), 'no-store');
  });

  test('a client without the grant enabled, and the instance client, are unauthorized_client', async () => {
    const plain = await createClient(server, { name: 'Not enabled' });
    const refused = await deviceAuthorization(server, plain);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'unauthorized_client');
    const instance = await fetch(`${server.baseUrl}/oauth/device_authorization`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=test-client',
    });
    assert.equal(((await instance.json()) as any).error, 'unauthorized_client');
    const wrongSecret = await deviceAuthorization(server, { ...device, secret: 'wrong' });
    assert.equal(wrongSecret.status, 401);
    assert.equal(wrongSecret.body.error, 'invalid_client');
    const badScope = await deviceAuthorization(server, device, { scope: 'openid admin:all' });
    assert.equal(badScope.body.error, 'invalid_scope');
    // Disabled again: the next request is refused.
    await adminClient(server).ok('set_client_device_grant', { client_id: plain.clientId, enabled: true });
    await adminClient(server).ok('set_client_device_grant', { client_id: plain.clientId, enabled: false });
    assert.equal((await deviceAuthorization(server, plain)).body.error, 'unauthorized_client');
  });

  test('pending, slow_down, approval, tokens for the client once, then the code is used up', async () => {
    const opened = (await deviceAuthorization(server, device, { scope: 'openid email offline_access' })).body;
    const pending = await poll(device, opened.device_code);
    assert.equal(pending.status, 400);
    assert.equal(pending.body.error, 'authorization_pending');
    // Faster than the interval: slow_down, and the interval grows by 5 seconds (RFC 8628 section 3.5).
    const fast = await poll(device, opened.device_code, 1);
    assert.equal(fast.body.error, 'slow_down');
    assert.equal((await poll(device, opened.device_code, 6)).body.error, 'slow_down', 'now 10 seconds are needed, and 15 after this one');
    assert.equal((await poll(device, opened.device_code, 15)).body.error, 'authorization_pending');

    // Typed in lower case with a space instead of the dash: the same code (RFC 8628 section 6.1).
    const typed = opened.user_code.toLowerCase().replace('-', ' ');
    const shown = await callAs(server, browser, 'device_authorization_request', { user_code: typed });
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.deepEqual(shown.body, { client_id: device.clientId, client_name: 'Living Room TV', scopes: ['openid', 'email', 'offline_access'] });
    const decided = await callAs(server, browser, 'decide_device_authorization', { user_code: opened.user_code, approve: true });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    // Decided once: the code no longer finds the request.
    assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: opened.user_code, approve: false })).status, 404);

    // Another enabled client polling with this device_code gets nothing.
    const stolen = await poll(other, opened.device_code);
    assert.equal(stolen.body.error, 'invalid_grant');
    const granted = await poll(device, opened.device_code, 10);
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.equal(granted.body.token_type, 'Bearer');
    assert.equal(granted.body.scope, 'openid email offline_access');
    assert.ok(granted.body.refresh_token, 'offline_access gives a refresh token');
    const access = decodeJwt(granted.body.access_token);
    assert.equal(access.sub, browser.userId);
    assert.equal(access.aud, device.clientId);
    assert.equal(access.azp, device.clientId);
    const id = decodeJwt(granted.body.id_token);
    assert.equal(id.aud, device.clientId);
    assert.equal(id.email, browser.email);

    // The device has a session of its own: signing out of the browser that approved does not sign it out.
    const userinfo = () => fetch(`${server.baseUrl}/userinfo`, { headers: { authorization: `Bearer ${granted.body.access_token}` } });
    assert.equal((await userinfo()).status, 200);
    const loggedOut = await callAs(server, browser, 'logout', {});
    assert.equal(loggedOut.status, 200, JSON.stringify(loggedOut.body));
    assert.equal((await userinfo()).status, 200, 'the device keeps its session');
    browser = await signedInBrowser(server);
  });

  test('a device_code redeemed a second time is refused and revokes every token the first redemption issued', async () => {
    const opened = (await deviceAuthorization(server, device, { scope: 'openid offline_access' })).body;
    assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: opened.user_code, approve: true })).status, 200);
    const granted = await poll(device, opened.device_code);
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    // The device refreshes once: the refreshed tokens came from the same code and must end too.
    const refreshed = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: granted.body.refresh_token }, basicAuth(device.clientId, device.secret));
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    const userinfo = (token: string) => fetch(`${server.baseUrl}/userinfo`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await userinfo(refreshed.body.access_token)).status, 200);
    const sessionsBefore = (await adminClient(server).ok('user_sessions', { user_id: browser.userId })).sessions.length;

    // A copy of the device_code presented again, even after the request's lifetime (RFC 6749 section 4.1.2).
    clock.advance(700);
    const again = await poll(device, opened.device_code);
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
    assert.match(again.body.error_description, /already been used/);
    assert.equal(again.body.access_token, undefined);
    assert.equal((await userinfo(granted.body.access_token)).status, 401, 'the first access token is revoked');
    assert.equal((await userinfo(refreshed.body.access_token)).status, 401, 'and the one refreshed from it');
    const refreshAgain = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }, basicAuth(device.clientId, device.secret));
    assert.equal(refreshAgain.body.error, 'invalid_grant', 'and its refresh token');
    const sessionsAfter = (await adminClient(server).ok('user_sessions', { user_id: browser.userId })).sessions.length;
    assert.equal(sessionsAfter, sessionsBefore - 1, 'the device\'s session ended; the approving browser\'s stays');
    assert.equal((await callAs(server, browser, 'consents')).status, 200, 'the approving browser is still signed in');
  });

  test('approvals and denials are audited with the client, the scopes and the approving session, never the codes', async () => {
    const approved = (await deviceAuthorization(server, device, { scope: 'openid email' })).body;
    assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: approved.user_code, approve: true })).status, 200);
    const denied = (await deviceAuthorization(server, device, { scope: 'openid' })).body;
    assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: denied.user_code, approve: false })).status, 200);
    const entries = async (action: string) => (await adminClient(server).ok('audit_logs', { action, actor_id: browser.userId, pagination: { limit: 100 } })).audit_logs as Record<string, any>[];
    const [approval] = await entries('user.device_approved');
    assert.ok(approval, 'the approval is audited');
    assert.equal(approval.actor_type, 'user');
    assert.equal(approval.resource_type, 'oauth_client');
    assert.equal(approval.resource_id, device.clientId);
    const [denial] = await entries('user.device_denied');
    assert.ok(denial, 'the denial is audited');
    assert.equal(denial.resource_id, device.clientId);
    const metadata = JSON.stringify([approval.metadata, denial.metadata]);
    assert.match(metadata, /openid/);
    for (const secret of [approved.user_code, approved.device_code, denied.user_code, denied.device_code]) {
      assert.ok(!metadata.includes(secret) && !JSON.stringify([approval, denial]).includes(secret), 'no code in the audit entries');
    }
    // A code decided already decides nothing and audits no decision.
    const before = (await entries('user.device_approved')).length;
    assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: approved.user_code, approve: true })).status, 404);
    assert.equal((await entries('user.device_approved')).length, before);
  });

  test('an approval is redeemed only while the approving session and its account are live', async () => {
    // The approving browser signs out before the device polls: nothing to open the device's session from.
    const signedOut = (await deviceAuthorization(server, device, { scope: 'openid' })).body;
    assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: signedOut.user_code, approve: true })).status, 200);
    assert.equal((await callAs(server, browser, 'logout', {})).status, 200);
    const afterLogout = await poll(device, signedOut.device_code);
    assert.equal(afterLogout.body.error, 'invalid_grant');
    assert.match(afterLogout.body.error_description, /session that approved this request has ended/);
    // An administrator revokes the account's access between approval and redemption: refused too.
    browser = await signedInBrowser(server);
    const revoked = (await deviceAuthorization(server, device, { scope: 'openid' })).body;
    assert.equal((await callAs(server, browser, 'decide_device_authorization', { user_code: revoked.user_code, approve: true })).status, 200);
    await adminClient(server).ok('revoke_access', { user_id: browser.userId });
    const afterRevoke = await poll(device, revoked.device_code);
    assert.equal(afterRevoke.status, 400);
    assert.equal(afterRevoke.body.error, 'invalid_grant');
    assert.equal(afterRevoke.body.access_token, undefined);
    browser = await signedInBrowser(server);
  });

  test('a denied request answers access_denied; an unknown device_code invalid_grant', async () => {
    const opened = (await deviceAuthorization(server, device, { scope: 'openid' })).body;
    const decided = await callAs(server, browser, 'decide_device_authorization', { user_code: opened.user_code, approve: false });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const denied = await poll(device, opened.device_code);
    assert.equal(denied.body.error, 'access_denied');
    assert.equal((await poll(device, 'not-a-device-code')).body.error, 'invalid_grant');
    const missing = await tokenRequest(server, { grant_type: DEVICE_GRANT }, basicAuth(device.clientId, device.secret));
    assert.equal(missing.body.error, 'invalid_request');
  });

  test('after 10 minutes the device hears expired_token and the code can no longer be approved', async () => {
    const opened = (await deviceAuthorization(server, device)).body;
    clock.advance(601);
    assert.equal((await poll(device, opened.device_code)).body.error, 'expired_token');
    const late = await callAs(server, browser, 'decide_device_authorization', { user_code: opened.user_code, approve: true });
    assert.equal(late.status, 404);
  });

  test('the device page operations need a signed-in person', async () => {
    const opened = (await deviceAuthorization(server, device)).body;
    const res = await fetch(`${server.baseUrl}/v1/device_authorization_request`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: server.baseUrl }, body: JSON.stringify({ user_code: opened.user_code }),
    });
    assert.equal(res.status, 401);
  });
});

describe('device authorization grant: guessing user codes', () => {
  let server: TestServer;
  let device: RegisteredClient;
  before(async () => {
    server = await startServer();
    device = await createClient(server, { name: 'Kiosk' });
    await adminClient(server).ok('set_client_device_grant', { client_id: device.clientId, enabled: true });
  });
  after(() => server.close());

  test('ten wrong codes are answered not found, the eleventh locks the session and the address, even for a right code', async () => {
    const opened = (await deviceAuthorization(server, device)).body;
    const guesser = await signedInBrowser(server);
    for (let i = 0; i < 10; i++) {
      const res = await callAs(server, guesser, 'device_authorization_request', { user_code: `BBBB-BB${'BCDFGHJKLM'[i]}${'BCDFGHJKLM'[i]}` });
      assert.equal(res.status, 404, `wrong code ${i + 1}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.message, 'this code is wrong, expired or already used');
    }
    const locked = await callAs(server, guesser, 'device_authorization_request', { user_code: 'not even a code' });
    assert.equal(locked.status, 429);
    const right = await callAs(server, guesser, 'decide_device_authorization', { user_code: opened.user_code, approve: true });
    assert.equal(right.status, 429, 'a locked session cannot approve even with the right code');
    // The same address in another session: the per-address count is spent too.
    const accomplice = await signedInBrowser(server);
    assert.equal((await callAs(server, accomplice, 'decide_device_authorization', { user_code: opened.user_code, approve: true })).status, 429);
    // The request the guessers could not reach is untouched: still pending for its device.
    const polled = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: opened.device_code }, basicAuth(device.clientId, device.secret));
    assert.equal(polled.body.error, 'authorization_pending');
  });
});
