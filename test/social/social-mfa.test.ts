/**
 * Social sign-in passes the MFA gate like a password does (docs/api-overview.md#states-and-transitions: the token is withheld
 * while a challenge is pending): the provider's word is a first factor. A user with an authenticator app who
 * signs in through the OAuth 2.0 upstream on loopback lands on the login UI's MFA step with the `mfa` cookie,
 * no session, and the application's target and state to return to; a right code completes the sign-in.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { enrolTotp } from '../support/second-factors.ts';
import { startOauth2Upstream, type Oauth2Upstream } from '../support/social-oauth2-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { totpCode } from '../../server/modules/mfa/totp.ts';

const APP = 'https://app.example.com/callback';
const CALLBACK = 'http://127.0.0.1:8080/oauth_callback/github';

describe('social sign-in of a user with a second factor', () => {
  const clock = new TestClock();
  let upstream: Oauth2Upstream;
  let server: TestServer;

  before(async () => {
    upstream = await startOauth2Upstream({ redirectUri: CALLBACK });
    server = await startServer(['--allowed-origins', '*,https://app.example.com', ...upstream.flags()], { clock });
    upstream.accounts.set('mfa-octo', { id: 201, login: 'mfa-octo', email: 'mfa-octo@example.com', verified: true });
  });
  after(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('lands on the MFA step with the mfa cookie and no session; the code completes the sign-in', async () => {
    const api = restClient(server);
    const email = 'mfa-octo@example.com';
    upstream.signInAs('mfa-octo');
    const first = new TestBrowser(server.baseUrl, [upstream.baseUrl]);
    const created = await first.navigate(`${server.baseUrl}/oauth_login/github?${new URLSearchParams({ redirectURL: APP, state: 's1' })}`);
    assert.equal(created.location, `${APP}?state=s1`, 'no factor yet: straight to the application');
    const session = await api.post('/v1/session', {}, { cookie: first.cookieHeader() });
    const bearer = { authorization: `Bearer ${session.body.access_token}` };
    const { secret } = await enrolTotp(server, bearer, clock);

    upstream.signInAs('mfa-octo');
    const browser = new TestBrowser(server.baseUrl, [upstream.baseUrl]);
    const landing = await browser.navigate(`${server.baseUrl}/oauth_login/github?${new URLSearchParams({ redirectURL: APP, state: 's2' })}`);
    const hop = landing.hops.find((h) => h.location?.includes('/app/mfa'));
    assert.ok(hop, JSON.stringify(landing.hops.map((h) => [h.status, h.location])));
    const step = new URL(hop.location!);
    assert.equal(step.pathname, '/app/mfa');
    assert.equal(landing.status, 200, 'the login UI serves the step, the round trip vetted');
    assert.equal(step.searchParams.get('step'), 'verify');
    assert.equal(step.searchParams.get('methods'), 'totp');
    assert.equal(step.searchParams.get('redirect_uri'), APP);
    assert.equal(step.searchParams.get('state'), 's2');
    assert.match(browser.cookieHeader(), /(^|; )mfa=/);
    const noSession = await api.post('/v1/session', {}, { cookie: browser.cookieHeader() });
    assert.equal(noSession.status, 401, 'no session before the second factor');

    const done = await api.post('/v1/verify_otp', { email, otp: totpCode(secret, clock.now()), is_totp: true }, { cookie: browser.cookieHeader() });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const amr = JSON.parse(Buffer.from(done.body.id_token.split('.')[1], 'base64url').toString()).amr as string[];
    assert.ok(amr.includes('fed') && amr.includes('mfa'), JSON.stringify(amr));
  });
});
