/**
 * Step-up (README "Security"; the idea of OAuth 2.0 Step-Up Authentication, RFC 9470): adding a passkey, an
 * authenticator app, or an email or SMS code factor, and deactivating the account, need a sign-in within
 * the last 5 minutes (the session's auth_time), whether the caller presents the session's bearer token or
 * its cookie; a session refresh does not make an old sign-in recent. Changing the password with the current
 * password still works at any age (the password is the step-up). Refused over REST, GraphQL and gRPC with
 * permission_denied and a message that says to sign in again; a refused call changes nothing.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { TestClock } from '../support/test-clock.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { CODES, threeProtocols, type ProtocolReply, type Protocol } from '../support/three-protocols.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { User } from '../../server/modules/users/user.entity.ts';

const PASSWORD = 'Str0ng!pass-step-up';
const ORIGIN = 'http://127.0.0.1:8080';
const PROTOCOLS: Protocol[] = ['rest', 'graphql', 'grpc'];
const WINDOW_SECONDS = 5 * 60;
/** Each adds a credential or factor, or ends the account; none takes a password. */
const STEP_UP_OPS = ['webauthn_registration_options', 'totp_mfa_setup', 'email_otp_mfa_setup', 'sms_otp_mfa_setup', 'deactivate_account'];

/** `cookie_session=<value>` of the cookies an answer set. */
function sessionCookieOf(reply: ProtocolReply): string {
  const cookie = reply.cookies.split('; ').find((c) => c.startsWith('cookie_session='));
  assert.ok(cookie, 'the answer sets cookie_session');
  return cookie;
}

describe('step-up: recent authentication before adding a factor or deactivating', () => {
  const clock = new TestClock();
  let smtp: SmtpSink;
  let sms: SmsSink;
  let server: TestServer;
  let ops: ReturnType<typeof threeProtocols>;
  let count = 0;

  before(async () => {
    smtp = await startSmtpSink();
    sms = await startSmsSink();
    server = await startServer([...smtp.flags(), ...sms.flags()], { clock });
    ops = threeProtocols(server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
    await smtp?.close();
    await sms?.close();
  });

  /** A new account signed in now: its bearer token and its session cookie. */
  async function signedIn() {
    const n = ++count;
    const user = await signedInUser(server, { email: `step-up-${n}@example.com`, password: PASSWORD, phone: `+1555200${String(n).padStart(4, '0')}` });
    assert.ok(user.sessionCookie, 'the login sets cookie_session');
    return { email: user.email, bearer: user.bearer, cookie: { cookie: `cookie_session=${user.sessionCookie}` } };
  }

  const row = (email: string) => server.app.deps.storage.fork().findOneOrFail(User, { email });

  function assertStepUpRefusal(protocol: Protocol, reply: ProtocolReply, what: string): void {
    assert.equal(reply.ok, false, `${what}: ${JSON.stringify(reply.body)}`);
    assert.equal(reply.code, CODES.forbidden[protocol], `${what}: ${JSON.stringify(reply.body)}`);
    assert.match(reply.body.message, /sign in again/, what);
    assert.match(reply.body.message, /last 5 minutes/, what);
  }

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: a sign-in older than 5 minutes cannot add a factor or deactivate; nothing changes`, async () => {
      const user = await signedIn();
      clock.advance(WINDOW_SECONDS + 1);
      for (const name of STEP_UP_OPS) {
        assertStepUpRefusal(protocol, await ops.send(protocol, name, {}, user.bearer), `${name} with the bearer token`);
        assertStepUpRefusal(protocol, await ops.send(protocol, name, {}, user.cookie), `${name} with the session cookie`);
      }
      const after = await row(user.email);
      assert.equal(after.deactivatedAt, null, 'the account is still active');
      const profile = await ops.send(protocol, 'profile', {}, user.bearer);
      assert.ok(profile.ok, 'the session itself still works for everything else');
      assert.deepEqual(profile.body.enrolled_mfa_methods ?? [], []);
      // The current password is the step-up where the operation takes one.
      const changed = await ops.send(protocol, 'update_profile', { old_password: PASSWORD, new_password: 'N3w!pass-step-up', confirm_new_password: 'N3w!pass-step-up' }, user.bearer);
      assert.ok(changed.ok, JSON.stringify(changed.body));
    });

    test(`${protocol}: a passkey ceremony started in the window cannot be finished after it`, async () => {
      const user = await signedIn();
      clock.advance(WINDOW_SECONDS - 10);
      const options = await ops.send(protocol, 'webauthn_registration_options', {}, user.bearer);
      assert.ok(options.ok, JSON.stringify(options.body));
      clock.advance(20);
      const credential = new SoftAuthenticator(ORIGIN).register(options.body.options);
      assertStepUpRefusal(protocol, await ops.send(protocol, 'webauthn_registration_verify', { credential }, user.bearer), 'webauthn_registration_verify');
      assert.deepEqual((await ops.send(protocol, 'profile', {}, user.bearer)).body.enrolled_mfa_methods ?? [], [], 'no passkey was added');
    });

    test(`${protocol}: within 5 minutes of the sign-in every step-up operation goes through`, async () => {
      const user = await signedIn();
      clock.advance(WINDOW_SECONDS - 30);
      const options = await ops.send(protocol, 'webauthn_registration_options', {}, user.bearer);
      assert.ok(options.ok, JSON.stringify(options.body));
      const credential = new SoftAuthenticator(ORIGIN).register(options.body.options);
      const registered = await ops.send(protocol, 'webauthn_registration_verify', { credential }, user.bearer);
      assert.ok(registered.ok, JSON.stringify(registered.body));
      for (const name of ['totp_mfa_setup', 'email_otp_mfa_setup', 'sms_otp_mfa_setup']) {
        const reply = await ops.send(protocol, name, {}, user.cookie);
        assert.ok(reply.ok, `${name}: ${JSON.stringify(reply.body)}`);
      }
      const deactivated = await ops.send(protocol, 'deactivate_account', {}, user.bearer);
      assert.ok(deactivated.ok, JSON.stringify(deactivated.body));
      assert.notEqual((await row(user.email)).deactivatedAt, null);
    });
  }

  test('refreshing the session keeps the time of the sign-in: an old sign-in stays old', async () => {
    const user = await signedIn();
    clock.advance(WINDOW_SECONDS + 1);
    const refreshed = await ops.send('rest', 'session', {}, user.cookie);
    assert.ok(refreshed.ok, JSON.stringify(refreshed.body));
    const cookie = { cookie: sessionCookieOf(refreshed) };
    for (const credentials of [{ authorization: `Bearer ${refreshed.body.access_token}` }, cookie]) {
      assertStepUpRefusal('rest', await ops.send('rest', 'totp_mfa_setup', {}, credentials), 'totp_mfa_setup after a refresh');
    }
    const again = await ops.send('rest', 'login', { email: user.email, password: PASSWORD });
    const fresh = await ops.send('rest', 'totp_mfa_setup', {}, { authorization: `Bearer ${again.body.access_token}` });
    assert.ok(fresh.ok, 'a new sign-in is recent again');
  });
});
