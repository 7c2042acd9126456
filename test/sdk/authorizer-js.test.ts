/**
 * The existing client SDK, @authorizerdev/authorizer-js 3.0.1, driven unchanged against a real server
 * (docs/sdk-compatibility.md). The only extra header is Origin, which the CSRF rule asks of
 * server-side clients. Emails go to a real local SMTP server; links are read from the received messages.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Authorizer } from '@authorizerdev/authorizer-js';
import { startServer, ADMIN_SECRET, CLIENT_ID, type TestServer } from '../support/app.ts';
import { startSmtpSink, firstLink, type SmtpSink } from '../support/smtp-sink.ts';

const PASSWORD = 'Sdk!passw0rd';

describe('authorizer-js 3.0.1 against Portcullis', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let sdk: Authorizer;
  before(async () => {
    smtp = await startSmtpSink();
    server = await startServer(['--enable-email-verification', '--enable-magic-link-login', ...smtp.flags()]);
    sdk = new Authorizer({
      authorizerURL: server.baseUrl,
      // The SDK sends this as redirect_uri: only --redirect-uris, the --url origin and explicitly allowed
      // origins are accepted (no open redirect), so the application sits under the test server's --url.
      redirectURL: 'http://127.0.0.1:8080/app',
      clientID: CLIENT_ID,
      extraHeaders: { Origin: server.baseUrl },
    });
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  async function tokenMailedTo(email: string, skip = 0): Promise<string> {
    let seen = 0;
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(email) && seen++ >= skip);
    return new URL(firstLink(mail.text)!).searchParams.get('token')!;
  }

  test('meta', async () => {
    const { data, errors } = await sdk.getMetaData();
    assert.deepEqual(errors, []);
    assert.equal(data?.client_id, CLIENT_ID);
    assert.equal(data?.is_email_verification_enabled, true);
  });

  test('signup, admin reads the verification request, verify email, login, profile, refresh, deactivate', async () => {
    const signup = await sdk.signup({ email: 'sdk@example.com', password: PASSWORD, confirm_password: PASSWORD, given_name: 'Sdk' });
    assert.deepEqual(signup.errors, []);
    assert.equal(signup.data?.access_token ?? null, null);

    // The admin sees the pending request (its token is stored hashed and never shown); the link comes by email.
    const pending = await sdk.graphqlQuery({
      query: 'query { _verification_requests { verification_requests { email identifier token } } }',
      headers: { 'x-service-admin-secret': ADMIN_SECRET },
    });
    assert.deepEqual(pending.errors ?? [], []);
    const request = pending.data._verification_requests.verification_requests.find((r: any) => r.email === 'sdk@example.com');
    assert.equal(request.identifier, 'basic_auth_signup');
    assert.equal(request.token, null);

    const verified = await sdk.verifyEmail({ token: await tokenMailedTo('sdk@example.com') });
    assert.deepEqual(verified.errors, []);
    assert.ok(verified.data?.access_token);

    const login = await sdk.login({ email: 'sdk@example.com', password: PASSWORD, scope: ['openid', 'email', 'profile', 'offline_access'] });
    assert.deepEqual(login.errors, []);
    const tokens = login.data!;
    assert.ok(tokens.refresh_token, 'offline_access yields a refresh token');
    assert.ok(tokens.expires_in! > 1700 && tokens.expires_in! <= 1800);

    const valid = await sdk.validateJWTToken({ token_type: 'access_token', token: tokens.access_token! });
    assert.deepEqual(valid.errors, []);
    assert.equal(valid.data?.is_valid, true);

    const bearer = { Authorization: `Bearer ${tokens.access_token}` };
    const updated = await sdk.updateProfile({ nickname: 'sdky' }, bearer);
    assert.deepEqual(updated.errors, []);
    const profile = await sdk.getProfile(bearer);
    assert.deepEqual(profile.errors, []);
    assert.equal(profile.data?.nickname, 'sdky');
    assert.equal(profile.data?.email, 'sdk@example.com');

    const refreshed = await sdk.getToken({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    assert.deepEqual(refreshed.errors, []);
    assert.ok(refreshed.data?.access_token);
    assert.notEqual(refreshed.data?.refresh_token, tokens.refresh_token, 'refresh tokens rotate');
    const reused = await sdk.getToken({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    assert.equal(reused.errors.length, 1, 'a rotated refresh token is refused');

    const fresh = await sdk.login({ email: 'sdk@example.com', password: PASSWORD });
    const freshBearer = { Authorization: `Bearer ${fresh.data!.access_token}` };
    const deactivated = await sdk.deactivateAccount(freshBearer);
    assert.deepEqual(deactivated.errors, []);
    const gone = await sdk.getProfile(freshBearer);
    assert.equal(gone.errors.length, 1);
  });

  test('magic link login completed through verify_email', async () => {
    const sent = await sdk.magicLinkLogin({ email: 'magic@example.com' });
    assert.deepEqual(sent.errors, []);
    const done = await sdk.verifyEmail({ token: await tokenMailedTo('magic@example.com') });
    assert.deepEqual(done.errors, []);
    assert.ok(done.data?.access_token);
    assert.equal(done.data?.user?.email, 'magic@example.com');
    assert.ok(done.data?.user?.signup_methods.includes('magic_link_login'));
  });

  test('revokeToken through /oauth/revoke ends the refresh token', async () => {
    await sdk.signup({ email: 'rev@example.com', password: PASSWORD, confirm_password: PASSWORD });
    await sdk.verifyEmail({ token: await tokenMailedTo('rev@example.com') });
    const login = await sdk.login({ email: 'rev@example.com', password: PASSWORD, scope: ['openid', 'offline_access'] });
    const refreshToken = login.data!.refresh_token!;
    const revoked = await sdk.revokeToken({ refresh_token: refreshToken });
    assert.deepEqual(revoked.errors, []);
    const refused = await sdk.getToken({ grant_type: 'refresh_token', refresh_token: refreshToken });
    assert.equal(refused.errors.length, 1);
  });
});
