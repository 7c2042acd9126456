/**
 * Email and SMS one-time codes as a second factor, end to end
 * (docs/api-overview.md#states-and-transitions, "MFA enrollment created, unverified (email OTP, SMS OTP)";
 * docs/operations.md#email_otp_mfa_setup, sms_otp_mfa_setup, verify_otp,
 * resend_otp; docs/api-overview.md#authentication the `mfa` cookie): a signed-in user adds the factor with a first code sent to their own
 * address (a real SMTP server on loopback) or number (a Twilio-style HTTP sink on loopback); from then on a
 * password login answers the challenge, the code leaves at once, and verify_otp with the cookie completes
 * the sign-in. Wrong, sixth, expired and replaced codes are refused; resending waits out a cool-down; the
 * database never holds a code in clear.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { postGraphql } from '../graphql/client.ts';
import { cookieValue, restClient, type RestReply } from '../support/rest-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';

const PASSWORD = 'Str0ng!pass-codes';

describe('one-time codes by email and SMS as a second factor', () => {
  const clock = new TestClock();
  let smtp: SmtpSink;
  let sms: SmsSink;
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  let count = 0;

  before(async () => {
    smtp = await startSmtpSink();
    sms = await startSmsSink();
    server = await startServer([...smtp.flags(), ...sms.flags()], { clock });
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
    await smtp?.close();
    await sms?.close();
  });

  const withMfaCookie = (reply: RestReply) => ({ cookie: `mfa=${cookieValue(reply.cookies, 'mfa')}` });

  /** The newest code mailed to `email` after `seen` earlier messages to it. */
  async function mailedCode(email: string, seen: number): Promise<string> {
    await server.app.outbox.idle();
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(email) && smtp.messages.filter((x) => x.envelope.to.includes(email)).indexOf(m) >= seen, 15_000);
    return /\b(\d{6})\b/.exec(mail.text ?? '')![1]!;
  }
  const mailsTo = (email: string) => smtp.messages.filter((m) => m.envelope.to.includes(email)).length;

  async function textedCode(phone: string, seen: number): Promise<string> {
    await server.app.outbox.idle();
    const texts = sms.requests.filter((r) => r.form.To === phone);
    assert.ok(texts.length > seen, `a text to ${phone}`);
    return /\b(\d{6})\b/.exec(texts[texts.length - 1]!.form.Body!)![1]!;
  }
  const textsTo = (phone: string) => sms.requests.filter((r) => r.form.To === phone).length;

  async function signedIn(withPhone = false) {
    const n = ++count;
    const phone = `+1555100${String(n).padStart(4, '0')}`;
    const user = await signedInUser(server, { email: `codes-${n}@example.com`, password: PASSWORD, phone: withPhone ? phone : undefined });
    return { ...user, phone };
  }

  async function emailEnrolled() {
    const user = await signedIn();
    const seen = mailsTo(user.email);
    const setup = await api.post('/v1/email_otp_mfa_setup', {}, user.bearer);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    assert.equal(setup.body.access_token, undefined);
    assert.deepEqual(setup.body.user.enrolled_mfa_methods, [], 'unverified until a code comes back');
    const code = await mailedCode(user.email, seen);
    const unverifiedLogin = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    assert.equal(typeof unverifiedLogin.body.access_token, 'string', 'an unverified factor asks for nothing');
    const verified = await api.post('/v1/verify_otp', { email: user.email, otp: code }, user.bearer);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.access_token, undefined, 'enrolment issues no token');
    assert.deepEqual(verified.body.user.enrolled_mfa_methods, ['email_otp']);
    return user;
  }

  test('email: enrolment by a mailed code, then every password login mails a code that completes it once', async () => {
    const user = await emailEnrolled();
    const seen = mailsTo(user.email);
    const challenged = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    assert.equal(challenged.status, 200);
    assert.equal(challenged.body.should_show_email_otp_screen, true);
    assert.equal(challenged.body.access_token, undefined);
    const code = await mailedCode(user.email, seen);
    const done = await api.post('/v1/verify_otp', { email: user.email, otp: code }, withMfaCookie(challenged));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.access_token, 'string');
    const amr = decodeJwt(done.body.id_token).amr as string[];
    assert.ok(amr.includes('pwd') && amr.includes('otp') && amr.includes('mfa'), JSON.stringify(amr));
    const reused = await api.post('/v1/verify_otp', { email: user.email, otp: code }, withMfaCookie(await api.post('/v1/login', { email: user.email, password: PASSWORD })));
    assert.equal(reused.status, 400, 'a code works once');
  });

  test('email: five wrong codes end the challenge and a sixth is refused, right or not', async () => {
    const user = await emailEnrolled();
    const seen = mailsTo(user.email);
    const challenged = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    const code = await mailedCode(user.email, seen);
    const wrong = code === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api.post('/v1/verify_otp', { otp: wrong }, withMfaCookie(challenged))).status);
    assert.deepEqual(statuses.slice(0, 4), [400, 400, 400, 400]);
    assert.ok([401, 429].includes(statuses[4]!), `the fifth ends it: ${statuses[4]}`);
    const sixth = await api.post('/v1/verify_otp', { otp: code }, withMfaCookie(challenged));
    assert.equal(sixth.status, 401, 'the right code after five wrong ones');
  });

  test('email: a code older than ten minutes is refused', async () => {
    const user = await signedIn();
    const seen = mailsTo(user.email);
    assert.equal((await api.post('/v1/email_otp_mfa_setup', {}, user.bearer)).status, 200);
    const code = await mailedCode(user.email, seen);
    clock.advance(10 * 60 + 1);
    const late = await api.post('/v1/verify_otp', { otp: code }, user.bearer);
    assert.equal(late.status, 400, JSON.stringify(late.body));
    assert.deepEqual((await api.get('/v1/profile', user.bearer)).body.enrolled_mfa_methods, []);
  });

  test('resend_otp on the cookie waits out the cool-down, and the new code replaces the old one', async () => {
    const user = await emailEnrolled();
    const seen = mailsTo(user.email);
    const challenged = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    const first = await mailedCode(user.email, seen);
    const tooSoon = await api.post('/v1/resend_otp', {}, withMfaCookie(challenged));
    assert.equal(tooSoon.status, 429, JSON.stringify(tooSoon.body));
    clock.advance(31);
    const resent = await api.post('/v1/resend_otp', {}, withMfaCookie(challenged));
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    const second = await mailedCode(user.email, seen + 1);
    if (first !== second) {
      const old = await api.post('/v1/verify_otp', { otp: first }, withMfaCookie(challenged));
      assert.equal(old.status, 400, 'the replaced code');
    }
    const done = await api.post('/v1/verify_otp', { otp: second }, withMfaCookie(challenged));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.access_token, 'string');
    assert.equal((await api.post('/v1/resend_otp', {}, { cookie: 'mfa=forged' })).status, 401);
  });

  test('logins past the destination\'s hourly allowance still answer the challenge, without another mail', async () => {
    const user = await emailEnrolled();
    for (let i = 0; i < 11; i++) {
      const challenged = await api.post('/v1/login', { email: user.email, password: PASSWORD });
      assert.equal(challenged.status, 200, `login ${i + 1}: ${JSON.stringify(challenged.body)}`);
      assert.equal(challenged.body.should_show_email_otp_screen, true);
    }
    await server.app.outbox.idle();
    assert.ok(mailsTo(user.email) <= 10, `at most ten mails an hour, got ${mailsTo(user.email)}`);
  });

  test('sms: enrolment by a texted code to the account\'s own number, then the login challenge texts one', async () => {
    const user = await signedIn(true);
    let seen = textsTo(user.phone);
    const setup = await api.post('/v1/sms_otp_mfa_setup', { phone_number: '+15559999999' }, user.bearer);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    assert.equal(setup.body.should_show_mobile_otp_screen, true);
    assert.equal(sms.requests.filter((r) => r.form.To === '+15559999999').length, 0, 'never to a number the request names');
    const enrolCode = await textedCode(user.phone, seen);
    const verified = await api.post('/v1/verify_otp', { phone_number: user.phone, otp: enrolCode }, user.bearer);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.deepEqual(verified.body.user.enrolled_mfa_methods, ['sms_otp']);

    seen = textsTo(user.phone);
    const challenged = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    assert.equal(challenged.body.should_show_mobile_otp_screen, true);
    assert.equal(challenged.body.access_token, undefined);
    const code = await textedCode(user.phone, seen);
    const done = await api.post('/v1/verify_otp', { phone_number: user.phone, otp: code }, withMfaCookie(challenged));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.ok((decodeJwt(done.body.id_token).amr as string[]).includes('mfa'));
  });

  test('a user with email and SMS codes who signs in by email can choose the SMS code (mfa_method)', async () => {
    const user = await signedIn(true);
    const seenMail = mailsTo(user.email);
    assert.equal((await api.post('/v1/email_otp_mfa_setup', {}, user.bearer)).status, 200);
    assert.equal((await api.post('/v1/verify_otp', { otp: await mailedCode(user.email, seenMail) }, user.bearer)).status, 200);
    clock.advance(31);
    let seenText = textsTo(user.phone);
    assert.equal((await api.post('/v1/sms_otp_mfa_setup', {}, user.bearer)).status, 200);
    const enrolled = await api.post('/v1/verify_otp', { otp: await textedCode(user.phone, seenText) }, user.bearer);
    assert.deepEqual(enrolled.body.user.enrolled_mfa_methods, ['email_otp', 'sms_otp']);

    clock.advance(31);
    const challenged = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    assert.equal(challenged.body.should_show_email_otp_screen, true);
    assert.equal(challenged.body.should_show_mobile_otp_screen, true);
    const mfa = withMfaCookie(challenged);
    seenText = textsTo(user.phone);
    assert.equal((await api.post('/v1/resend_otp', { email: user.email, mfa_method: 'sms_otp' }, mfa)).status, 200);
    const code = await textedCode(user.phone, seenText);
    assert.equal((await api.post('/v1/resend_otp', { mfa_method: 'fax' }, mfa)).status, 400, 'an unknown method is refused');
    const done = await api.post('/v1/verify_otp', { email: user.email, otp: code }, mfa);
    assert.equal(done.status, 200, `the newest code sent decides: ${JSON.stringify(done.body)}`);
    assert.equal(typeof done.body.access_token, 'string');
  });

  test('over GraphQL: the email challenge is answered by verify_otp', async () => {
    const user = await emailEnrolled();
    const seen = mailsTo(user.email);
    const gql = async (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const reply = await postGraphql(server, query, variables, headers);
      return { body: reply.body as any, cookies: reply.headers.getSetCookie() };
    };
    const challenged = await gql('mutation($p: LoginRequest!) { login(params: $p) { should_show_email_otp_screen access_token } }', { p: { email: user.email, password: PASSWORD } });
    assert.equal(challenged.body.data.login.should_show_email_otp_screen, true);
    assert.equal(challenged.body.data.login.access_token, null);
    const code = await mailedCode(user.email, seen);
    const done = await gql('mutation($p: VerifyOTPRequest!) { verify_otp(params: $p) { access_token } }', { p: { email: user.email, otp: code } }, { cookie: `mfa=${cookieValue(challenged.cookies, 'mfa')}` });
    assert.equal(typeof done.body.data.verify_otp.access_token, 'string', JSON.stringify(done.body));
  });

  test('over GraphQL: SMS codes are set up and the texted challenge is answered', async () => {
    const user = await signedIn(true);
    const gql = async (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const reply = await postGraphql(server, query, variables, headers);
      return { body: reply.body as any, cookies: reply.headers.getSetCookie() };
    };
    let seen = textsTo(user.phone);
    const setup = await gql('mutation { sms_otp_mfa_setup(params: {}) { should_show_mobile_otp_screen } }', {}, user.bearer);
    assert.equal(setup.body.data.sms_otp_mfa_setup.should_show_mobile_otp_screen, true, JSON.stringify(setup.body));
    const enrol = await gql('mutation($p: VerifyOTPRequest!) { verify_otp(params: $p) { user { enrolled_mfa_methods } } }', { p: { phone_number: user.phone, otp: await textedCode(user.phone, seen) } }, user.bearer);
    assert.deepEqual(enrol.body.data.verify_otp.user.enrolled_mfa_methods, ['sms_otp'], JSON.stringify(enrol.body));
    seen = textsTo(user.phone);
    const challenged = await gql('mutation($p: LoginRequest!) { login(params: $p) { should_show_mobile_otp_screen access_token } }', { p: { email: user.email, password: PASSWORD } });
    assert.equal(challenged.body.data.login.should_show_mobile_otp_screen, true);
    assert.equal(challenged.body.data.login.access_token, null);
    const done = await gql('mutation($p: VerifyOTPRequest!) { verify_otp(params: $p) { access_token } }', { p: { phone_number: user.phone, otp: await textedCode(user.phone, seen) } }, { cookie: `mfa=${cookieValue(challenged.cookies, 'mfa')}` });
    assert.equal(typeof done.body.data.verify_otp.access_token, 'string', JSON.stringify(done.body));
  });

  test('the database holds no code in clear', async () => {
    const user = await emailEnrolled();
    const seen = mailsTo(user.email);
    await api.post('/v1/login', { email: user.email, password: PASSWORD });
    const code = await mailedCode(user.email, seen);
    const rows = await server.app.deps.storage.fork().getConnection().execute('select * from otps');
    assert.ok(rows.length > 0);
    assert.ok(!JSON.stringify(rows).includes(code), 'the code is stored only as a sealed digest');
  });
});
