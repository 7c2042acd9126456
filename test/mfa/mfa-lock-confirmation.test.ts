/**
 * lock_mfa is confirmed by a code sent to the account's proven email address (accounts/mfa-lock.ts), over
 * REST, GraphQL and gRPC. The challenge's `mfa` cookie proves the password only, and a leaked password must
 * not be enough to shut the owner out until an administrator's reset (NIST SP 800-63B 6.1.2.3: the loss of
 * an authenticator is reported with a proof other than the remaining factor). So:
 * - the first call only sends the code: the account still signs in with its second factor;
 * - a wrong code is refused (invalid_argument) and locks nothing; the right code locks;
 * - an account without a proven address or number cannot confirm a lock (failed_precondition);
 * - the lock ends the sessions and tokens issued before it (whoever holds the lost device may hold one);
 * - a locked account is refused on every sign-in, a passkey included (accounts/sign-in-policy.ts).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as admin } from '../support/admin-client.ts';
import { restClient } from '../support/rest-client.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { TestClock } from '../support/test-clock.ts';
import { threeProtocols, CODES, type Protocol } from '../support/three-protocols.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { addPasskey, enrolTotp } from '../support/second-factors.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/modules/mfa/totp.ts';
import { LOCK_CODE_SENT_MESSAGE, LOCKED_MESSAGE, NO_PROVEN_CONTACT_MESSAGE } from '../../server/modules/accounts/mfa-lock.ts';
import { INVALID_OTP_MESSAGE } from '../../server/modules/verification/otp.service.ts';

const PASSWORD = 'Str0ng!pass-lock-confirm';
const PROTOCOLS: Protocol[] = ['rest', 'graphql', 'grpc'];
/** The status of a refused precondition on each protocol (gRPC FAILED_PRECONDITION is 9). */
const PRECONDITION = { rest: 'failed_precondition', graphql: 'FAILED_PRECONDITION', grpc: '9' } as const;

describe('lock_mfa needs the code sent to the proven address', () => {
  const clock = new TestClock();
  let smtp: SmtpSink;
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  let ops: ReturnType<typeof threeProtocols>;
  let count = 0;
  before(async () => {
    smtp = await startSmtpSink();
    server = await startServer(smtp.flags(), { clock });
    api = restClient(server);
    ops = threeProtocols(server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
    await smtp?.close();
  });

  /**
   * A signed-up user (set up over REST) whose only second factor is an authenticator app; with `proven`,
   * an administrator vouched for the email address (update_user email_verified: an 'admin' proof).
   */
  async function totpUser(protocol: Protocol, { proven = true, passkey = false } = {}) {
    const user = await signedUpUser(server, { email: `lock-${protocol}-${++count}@example.com`, password: PASSWORD });
    const { secret } = await enrolTotp(server, user.bearer, clock);
    const authenticator = passkey ? (await addPasskey(server, user.bearer)).authenticator : undefined;
    if (proven) await ops.over('rest', 'update_user', { id: user.userId, email_verified: true }, 'admin');
    return { id: user.userId, email: user.email, secret, authenticator };
  }

  /** A password login over `protocol` that stops at the challenge: its `mfa` cookie as a Cookie header. */
  async function challenge(protocol: Protocol, email: string): Promise<{ cookie: string }> {
    const login = await ops.send(protocol, 'login', { email, password: PASSWORD });
    assert.ok(login.ok, JSON.stringify(login.body));
    assert.equal(login.body.access_token, undefined, 'the password alone is challenged');
    assert.match(login.cookies, /mfa=/);
    return { cookie: login.cookies };
  }

  /** The six-digit code of the newest mail to `email`. */
  async function mailedCode(email: string): Promise<string> {
    await server.app.outbox.idle();
    const mails = smtp.messages.filter((m) => m.envelope.to.includes(email));
    assert.ok(mails.length > 0, `a code was mailed to ${email}`);
    return /\b(\d{6})\b/.exec(mails.at(-1)!.text ?? '')![1]!;
  }

  async function isLocked(id: string): Promise<boolean> {
    const record = await api.post('/v1/admin/user', { id }, admin);
    assert.equal(record.status, 200, JSON.stringify(record.body));
    return typeof record.body.mfa_locked_at === 'number';
  }

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: the password alone does not lock; the account still signs in with its authenticator app`, async () => {
      const user = await totpUser(protocol);
      const mfa = await challenge(protocol, user.email);
      const sent = await ops.send(protocol, 'lock_mfa', {}, mfa);
      assert.ok(sent.ok, JSON.stringify(sent.body));
      assert.equal(sent.body.message, LOCK_CODE_SENT_MESSAGE);
      assert.equal(await isLocked(user.id), false, 'no lock before the code');
      assert.match(await mailedCode(user.email), /^\d{6}$/, 'the code went to the proven address');

      const signedIn = await ops.send(protocol, 'verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, mfa);
      assert.ok(signedIn.ok, JSON.stringify(signedIn.body));
      assert.equal(typeof signedIn.body.access_token, 'string', 'the same challenge still completes');
      clock.advance(TOTP_PERIOD_SECONDS);
      const again = await ops.send(protocol, 'login', { email: user.email, password: PASSWORD });
      assert.ok(again.ok, `the next sign-in is challenged, not refused: ${JSON.stringify(again.body)}`);
    });

    test(`${protocol}: a wrong code is refused and locks nothing; the mailed code locks`, async () => {
      const user = await totpUser(protocol);
      const mfa = await challenge(protocol, user.email);
      assert.ok((await ops.send(protocol, 'lock_mfa', {}, mfa)).ok);
      const code = await mailedCode(user.email);
      const wrongCode = code === '000000' ? '111111' : '000000';
      const wrong = await ops.send(protocol, 'lock_mfa', { otp: wrongCode }, mfa);
      assert.equal(wrong.code, CODES.invalid[protocol], JSON.stringify(wrong.body));
      assert.match(wrong.body.message, new RegExp(INVALID_OTP_MESSAGE));
      assert.equal(await isLocked(user.id), false, 'a wrong code locks nothing');

      const locked = await ops.send(protocol, 'lock_mfa', { otp: code }, mfa);
      assert.ok(locked.ok, JSON.stringify(locked.body));
      assert.equal(locked.body.message, LOCKED_MESSAGE);
      assert.equal(locked.body.access_token, undefined);
      assert.equal(await isLocked(user.id), true);
      const reused = await ops.send(protocol, 'verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, mfa);
      assert.equal(reused.code, CODES.unauthenticated[protocol], 'the challenge is gone');
      const refused = await ops.send(protocol, 'login', { email: user.email, password: PASSWORD });
      assert.equal(refused.code, CODES.forbidden[protocol], JSON.stringify(refused.body));
    });

    test(`${protocol}: without a proven address or number the lock is refused (failed_precondition)`, async () => {
      // Signed up with --enable-email-verification off: the address was never proven.
      const user = await totpUser(protocol, { proven: false });
      const mfa = await challenge(protocol, user.email);
      const refused = await ops.send(protocol, 'lock_mfa', {}, mfa);
      assert.equal(refused.code, PRECONDITION[protocol], JSON.stringify(refused.body));
      assert.match(refused.body.message, new RegExp(NO_PROVEN_CONTACT_MESSAGE.split(':')[0]!));
      assert.equal(await isLocked(user.id), false);
      const signedIn = await ops.send(protocol, 'verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, mfa);
      assert.ok(signedIn.ok, JSON.stringify(signedIn.body));
      clock.advance(TOTP_PERIOD_SECONDS);
    });

    test(`${protocol}: the lock ends the sessions and tokens issued before it`, async () => {
      const user = await totpUser(protocol);
      const earlier = await ops.send(protocol, 'verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, await challenge(protocol, user.email));
      assert.ok(earlier.ok, JSON.stringify(earlier.body));
      clock.advance(TOTP_PERIOD_SECONDS);
      const sessionCookieOf = (cookies: string) => ({ cookie: cookies.split('; ').find((c) => c.startsWith('cookie_session='))! });
      assert.ok(sessionCookieOf(earlier.cookies).cookie, `a session cookie was set: ${earlier.cookies}`);
      // The renewal rotates the cookie (session.ops.ts): the rotated one is the live session to test.
      const renewed = await ops.send(protocol, 'session', {}, sessionCookieOf(earlier.cookies));
      assert.ok(renewed.ok, `the session works before the lock: ${JSON.stringify(renewed.body)}`);
      const sessionCookie = sessionCookieOf(renewed.cookies);
      const bearer = { authorization: `Bearer ${renewed.body.access_token}` };
      assert.ok((await ops.send(protocol, 'profile', {}, bearer)).ok, 'the token works before the lock');

      const mfa = await challenge(protocol, user.email);
      assert.ok((await ops.send(protocol, 'lock_mfa', {}, mfa)).ok);
      assert.ok((await ops.send(protocol, 'lock_mfa', { otp: await mailedCode(user.email) }, mfa)).ok);

      const profile = await ops.send(protocol, 'profile', {}, bearer);
      assert.equal(profile.ok, false, `the earlier access token is refused: ${JSON.stringify(profile.body)}`);
      assert.equal(profile.code, CODES.unauthenticated[protocol], JSON.stringify(profile.body));
      const session = await ops.send(protocol, 'session', {}, sessionCookie);
      assert.equal(session.ok, false, `the earlier session cookie is refused: ${JSON.stringify(session.body)}`);
      assert.equal(session.code, CODES.unauthenticated[protocol], JSON.stringify(session.body));
    });

    test(`${protocol}: after the lock a passkey does not sign in either (403)`, async () => {
      const user = await totpUser(protocol, { passkey: true });
      const mfa = await challenge(protocol, user.email);
      assert.ok((await ops.send(protocol, 'lock_mfa', {}, mfa)).ok);
      assert.ok((await ops.send(protocol, 'lock_mfa', { otp: await mailedCode(user.email) }, mfa)).ok);

      const options = await ops.send(protocol, 'webauthn_login_options', {});
      assert.ok(options.ok, JSON.stringify(options.body));
      const passkeySignIn = await ops.send(protocol, 'webauthn_login_verify', { credential: user.authenticator!.assert(options.body.options) });
      assert.equal(passkeySignIn.body.access_token, undefined, 'no token for a locked account');
      assert.equal(passkeySignIn.code, CODES.forbidden[protocol], JSON.stringify(passkeySignIn.body));
    });
  }
});
