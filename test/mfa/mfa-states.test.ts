/**
 * The MFA rows of the state table of docs/api-overview.md#states-and-transitions, one test each, plus the gate's rules around them:
 * - "MFA offer pending, token withheld" + skip_mfa_setup without --enforce-mfa: the token is issued and the
 *   decline recorded (has_skipped_mfa_setup_at), so the next login is not offered again;
 * - the same offer under --enforce-mfa: skip_mfa_setup is rejected; a factor set up with the offer's
 *   cookie (totp_mfa_setup, verify_otp with is_totp) completes the gate and issues the token;
 * - "Caller without verified email/SMS OTP fallback" + lock_mfa: no token; confirmed by the code mailed to
 *   the account's proven address, the account is locked until an admin's update_user with reset_mfa;
 *   refused while an email code factor could stand in (the confirmation's own rules: mfa-lock-confirmation.test.ts);
 * - "MFA enrollment created, unverified (email OTP)": the code is sent, the factor does not count yet;
 * - a challenge's cookie (password only) cannot enrol a factor of its own.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as admin } from '../support/admin-client.ts';
import { cookieValue, restClient, type RestReply } from '../support/rest-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { enrolTotp } from '../support/second-factors.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/modules/mfa/totp.ts';
import { LOCK_CODE_SENT_MESSAGE, LOCKED_MESSAGE } from '../../server/modules/accounts/mfa-lock.ts';

const PASSWORD = 'Str0ng!pass-states';
const withMfaCookie = (reply: RestReply) => ({ cookie: `mfa=${cookieValue(reply.cookies, 'mfa')}` });

describe('the first-time offer when the user asks for a second factor', () => {
  const clock = new TestClock();
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  before(async () => {
    server = await startServer([], { clock });
    api = restClient(server);
  });
  after(() => server?.close());

  test('skip_mfa_setup issues the withheld token and records the decline; the next login is not offered again', async () => {
    const email = 'offer-skip@example.com';
    const { bearer } = await signedInUser(server, { email, password: PASSWORD });
    assert.equal((await api.post('/v1/update_profile', { is_multi_factor_auth_enabled: true }, bearer)).status, 200);

    const offered = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(offered.status, 200, JSON.stringify(offered.body));
    assert.equal(offered.body.access_token, undefined, 'token withheld while the offer is pending');
    assert.equal(offered.body.should_offer_webauthn_mfa_setup, true);
    assert.equal(offered.body.should_show_totp_screen, true, 'the authenticator app is offered as the released line does');
    assert.match(offered.body.authenticator_scanner_image, /^data:image\/png;base64,/);
    assert.equal(offered.body.authenticator_recovery_codes.length, 10);
    assert.equal(offered.body.should_offer_email_otp_mfa_setup, undefined, 'no SMTP here: no email codes on offer');
    assert.ok(cookieValue(offered.cookies, 'mfa'));

    assert.equal((await api.post('/v1/skip_mfa_setup', {})).status, 401, 'not without the cookie');
    const skipped = await api.post('/v1/skip_mfa_setup', {}, withMfaCookie(offered));
    assert.equal(skipped.status, 200, JSON.stringify(skipped.body));
    assert.equal(typeof skipped.body.access_token, 'string');
    assert.equal(typeof skipped.body.user.has_skipped_mfa_setup_at, 'number');
    assert.equal((await api.post('/v1/skip_mfa_setup', {}, withMfaCookie(offered))).status, 401, 'the cookie served once');

    const next = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(typeof next.body.access_token, 'string', 'the decline is remembered');
  });

  test('a challenge cookie cannot enrol a factor or skip: only an offer\'s can', async () => {
    const email = 'challenge-enrol@example.com';
    const { bearer } = await signedInUser(server, { email, password: PASSWORD });
    await enrolTotp(server, bearer, clock);
    const challenged = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(challenged.body.should_show_totp_screen, true);
    const mfa = withMfaCookie(challenged);
    assert.equal((await api.post('/v1/totp_mfa_setup', {}, mfa)).status, 401, 'the password alone cannot add a factor');
    assert.equal((await api.post('/v1/email_otp_mfa_setup', {}, mfa)).status, 401);
    const skip = await api.post('/v1/skip_mfa_setup', {}, mfa);
    assert.equal(skip.status, 400);
    assert.equal(skip.body.code, 'failed_precondition');
  });
});

describe('--enforce-mfa', () => {
  const clock = new TestClock();
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  before(async () => {
    server = await startServer(['--enforce-mfa'], { clock });
    api = restClient(server);
  });
  after(() => server?.close());

  test('signup and login are offered a factor; skipping is rejected; an authenticator app set up on the offer cookie signs in', async () => {
    const email = 'enforced@example.com';
    const signup = await api.post('/v1/signup', { email, password: PASSWORD, confirm_password: PASSWORD });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    assert.equal(signup.body.access_token, undefined, 'not even the new account signs in without a factor');
    assert.equal(signup.body.user.email, email);

    const offered = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(offered.body.access_token, undefined);
    const mfa = withMfaCookie(offered);
    const skip = await api.post('/v1/skip_mfa_setup', {}, mfa);
    assert.equal(skip.status, 400);
    assert.equal(skip.body.code, 'failed_precondition');

    const setup = await api.post('/v1/totp_mfa_setup', {}, mfa);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    const secret = setup.body.authenticator_secret as string;
    const wrong = await api.post('/v1/verify_otp', { otp: totpCode(secret, new Date(clock.now().getTime() + 600_000)), is_totp: true }, mfa);
    assert.equal(wrong.status, 400);
    const done = await api.post('/v1/verify_otp', { otp: totpCode(secret, clock.now()), is_totp: true }, mfa);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.access_token, 'string');
    assert.deepEqual(done.body.user.enrolled_mfa_methods, ['totp']);
    clock.advance(TOTP_PERIOD_SECONDS);
    const next = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(next.body.should_show_totp_screen, true, 'from now on a challenge, not an offer');
  });
});

describe('--enforce-mfa as the released SDK drives it', () => {
  const clock = new TestClock();
  let server: TestServer;
  before(async () => {
    server = await startServer(['--enforce-mfa', '--disable-webauthn-mfa'], { clock });
  });
  after(() => server?.close());

  test('the login answer carries the authenticator-app enrolment, and verify_otp with its first code signs in', async () => {
    const api = restClient(server);
    const email = 'sdk-enforced@example.com';
    await api.post('/v1/signup', { email, password: PASSWORD, confirm_password: PASSWORD });
    const offered = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(offered.body.access_token, undefined);
    assert.equal(offered.body.should_show_totp_screen, true);
    assert.equal(offered.body.should_offer_webauthn_mfa_setup, undefined, 'passkeys are off here');
    const secret = offered.body.authenticator_secret as string;
    const done = await api.post('/v1/verify_otp', { email, otp: totpCode(secret, clock.now()), is_totp: true }, withMfaCookie(offered));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.access_token, 'string');
    assert.deepEqual(done.body.user.enrolled_mfa_methods, ['totp']);
  });
});

describe('lock_mfa and the admin reset', () => {
  const clock = new TestClock();
  let smtp: SmtpSink;
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  before(async () => {
    smtp = await startSmtpSink();
    server = await startServer(smtp.flags(), { clock });
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
    await smtp?.close();
  });

  async function totpUser(email: string) {
    const user = await signedInUser(server, { email, password: PASSWORD });
    const { secret } = await enrolTotp(server, user.bearer, clock);
    return { id: user.userId, bearer: user.bearer, secret };
  }

  test('with the authenticator app as the only factor: no token; the mailed code locks sign-in until reset_mfa', async () => {
    const email = 'lost-device@example.com';
    const user = await totpUser(email);
    // The lock is confirmed by a code to a proven address: an administrator vouches for this one.
    assert.equal((await api.post('/v1/admin/update_user', { id: user.id, email_verified: true }, admin)).status, 200);
    const challenged = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal((await api.post('/v1/lock_mfa', {})).status, 401, 'not without the cookie');
    const sent = await api.post('/v1/lock_mfa', {}, withMfaCookie(challenged));
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.message, LOCK_CODE_SENT_MESSAGE);
    assert.equal(sent.body.access_token, undefined);
    assert.equal(cookieValue(sent.cookies, 'mfa'), undefined, 'the challenge stays open for the code');
    await server.app.outbox.idle();
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(email), 15_000);
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1]!;

    const locked = await api.post('/v1/lock_mfa', { otp: code }, withMfaCookie(challenged));
    assert.equal(locked.status, 200, JSON.stringify(locked.body));
    assert.equal(locked.body.message, LOCKED_MESSAGE);
    assert.equal(locked.body.access_token, undefined);
    assert.match(locked.cookies.find((c) => c.startsWith('mfa='))!, /Max-Age=0/);
    const afterLock = await api.post('/v1/verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, withMfaCookie(challenged));
    assert.equal(afterLock.status, 401, 'the pending challenge is gone');

    const refused = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const record = await api.post('/v1/admin/user', { id: user.id }, admin);
    assert.equal(typeof record.body.mfa_locked_at, 'number', JSON.stringify(record.body));

    const reset = await api.post('/v1/admin/update_user', { id: user.id, reset_mfa: true }, admin);
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(reset.body.mfa_locked_at, undefined);
    assert.deepEqual(reset.body.enrolled_mfa_methods, []);
    const back = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(typeof back.body.access_token, 'string', 'after the reset the password alone signs in');
  });

  test('refused while an email code factor can stand in', async () => {
    const email = 'has-fallback@example.com';
    const user = await totpUser(email);
    const seen = smtp.messages.filter((m) => m.envelope.to.includes(email)).length;
    assert.equal((await api.post('/v1/email_otp_mfa_setup', {}, user.bearer)).status, 200);
    await server.app.outbox.idle();
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(email) && smtp.messages.filter((x) => x.envelope.to.includes(email)).indexOf(m) >= seen, 15_000);
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1]!;
    const verified = await api.post('/v1/verify_otp', { otp: code }, user.bearer);
    assert.deepEqual(verified.body.user.enrolled_mfa_methods, ['email_otp', 'totp']);

    const challenged = await api.post('/v1/login', { email, password: PASSWORD });
    assert.equal(challenged.body.should_show_totp_screen, true);
    assert.equal(challenged.body.should_show_email_otp_screen, true);
    const refused = await api.post('/v1/lock_mfa', {}, withMfaCookie(challenged));
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'failed_precondition');
  });
});
