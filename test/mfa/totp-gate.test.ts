/**
 * The authenticator app as a second factor, end to end over REST and GraphQL
 * (docs/api-overview.md#states-and-transitions, "TOTP enrollment" and the withheld token; docs/operations.md#login,
 * verify_otp, totp_mfa_setup; docs/api-overview.md#authentication the `mfa` cookie):
 * a signed-in user enrols (totp_mfa_setup, then verify_otp with is_totp), and from then on a password login
 * answers the challenge (should_show_totp_screen, the `mfa` cookie, no token) until verify_otp gets a right
 * code or an unused recovery code; an emailed magic link leads to the same challenge. Replays, reused
 * cookies and recovery codes, a sixth wrong code and guesses across challenges are refused. Codes are computed in the test from the secret the setup showed.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { postGraphql } from '../graphql/client.ts';
import { cookieValue, restClient, type RestReply } from '../support/rest-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { enrolTotp } from '../support/second-factors.ts';
import { firstLink, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/modules/mfa/totp.ts';

const PASSWORD = 'Str0ng!pass-totp-gate';

describe('TOTP as a second factor', () => {
  const clock = new TestClock();
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  let count = 0;

  before(async () => {
    server = await startServer([], { clock });
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
  });

  /** A fresh step, so that no code of an earlier test's step is in the way. */
  const nextStep = () => clock.advance(TOTP_PERIOD_SECONDS);
  const login = (email: string) => api.post('/v1/login', { email, password: PASSWORD });
  const withMfaCookie = (reply: RestReply) => ({ cookie: `mfa=${cookieValue(reply.cookies, 'mfa')}` });

  /** A user with a verified authenticator app: answers its secret and recovery codes. */
  async function enrolled() {
    // Without a factor, login signs in as before: signedInUser asserts the token.
    const { email, bearer } = await signedInUser(server, { email: `totp-${++count}@example.com`, password: PASSWORD });
    const setup = await api.post('/v1/totp_mfa_setup', {}, bearer);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    const secret = setup.body.authenticator_secret as string;
    assert.match(setup.body.authenticator_scanner_image, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    assert.equal(setup.body.authenticator_recovery_codes.length, 10);
    assert.equal(setup.body.access_token, undefined);
    assert.deepEqual((await api.get('/v1/profile', bearer)).body.enrolled_mfa_methods, [], 'not enrolled before a code is verified');
    const unverified = await login(email);
    assert.equal(typeof unverified.body.access_token, 'string', 'an unverified factor asks for nothing');
    const wrong = await api.post('/v1/verify_otp', { otp: totpCode(secret, new Date(clock.now().getTime() + 600_000)), is_totp: true }, bearer);
    assert.equal(wrong.status, 400);
    const verified = await api.post('/v1/verify_otp', { otp: totpCode(secret, clock.now()), is_totp: true }, bearer);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.access_token, undefined, 'enrolment issues no token');
    assert.deepEqual((await api.get('/v1/profile', bearer)).body.enrolled_mfa_methods, ['totp']);
    nextStep();
    return { email, secret, recoveryCodes: setup.body.authenticator_recovery_codes as string[] };
  }

  test('login withholds the token behind a challenge that a right code completes, once', async () => {
    const user = await enrolled();
    const challenged = await login(user.email);
    assert.equal(challenged.status, 200);
    assert.equal(challenged.body.should_show_totp_screen, true);
    assert.equal(challenged.body.access_token, undefined, 'no token while the challenge is pending');
    assert.equal(cookieValue(challenged.cookies, 'cookie_session'), undefined, 'no session either');
    assert.match(challenged.cookies.find((c) => c.startsWith('mfa='))!, /HttpOnly/);
    const mfa = withMfaCookie(challenged);

    const done = await api.post('/v1/verify_otp', { email: user.email, otp: totpCode(user.secret, clock.now()), is_totp: true }, mfa);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.access_token, 'string');
    assert.ok(cookieValue(done.cookies, 'cookie_session'), 'the session cookie is set');
    assert.match(done.cookies.find((c) => c.startsWith('mfa='))!, /Max-Age=0/, 'the mfa cookie is cleared');
    const amr = decodeJwt(done.body.id_token).amr as string[];
    assert.ok(amr.includes('pwd') && amr.includes('otp') && amr.includes('mfa'), `amr ${JSON.stringify(amr)}`);
    assert.equal((await api.post('/v1/validate_jwt_token', { token_type: 'access_token', token: done.body.access_token })).status, 200);

    const again = await api.post('/v1/verify_otp', { otp: totpCode(user.secret, new Date(clock.now().getTime() + 30_000)), is_totp: true }, mfa);
    assert.equal(again.status, 401, 'a completed challenge cannot be completed again');
  });

  test('a code is refused in the step it was already used in', async () => {
    const user = await enrolled();
    const code = totpCode(user.secret, clock.now());
    const first = await login(user.email);
    assert.equal((await api.post('/v1/verify_otp', { otp: code, is_totp: true }, withMfaCookie(first))).status, 200);
    const second = await login(user.email);
    const replay = await api.post('/v1/verify_otp', { otp: code, is_totp: true }, withMfaCookie(second));
    assert.equal(replay.status, 400, 'the same code in the same step');
    nextStep();
    assert.equal((await api.post('/v1/verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, withMfaCookie(second))).status, 200);
  });

  test('five wrong codes end the challenge, and a right code after them is refused', async () => {
    const user = await enrolled();
    const challenged = await login(user.email);
    const mfa = withMfaCookie(challenged);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api.post('/v1/verify_otp', { otp: '000000', is_totp: true }, mfa)).status);
    assert.deepEqual(statuses, [400, 400, 400, 400, 401]);
    const late = await api.post('/v1/verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, mfa);
    assert.equal(late.status, 401);
  });

  test('new challenges do not buy more guesses: ten wrong codes an hour per user', async () => {
    const user = await enrolled();
    for (let round = 0; round < 2; round++) {
      const mfa = withMfaCookie(await login(user.email));
      for (let i = 0; i < 5; i++) await api.post('/v1/verify_otp', { otp: '000000', is_totp: true }, mfa);
    }
    const third = await login(user.email);
    const refused = await api.post('/v1/verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, withMfaCookie(third));
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
  });

  test('a recovery code completes the login once', async () => {
    const user = await enrolled();
    const code = user.recoveryCodes[3]!;
    const done = await api.post('/v1/verify_otp', { otp: code.toLowerCase(), is_totp: true }, withMfaCookie(await login(user.email)));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.ok((decodeJwt(done.body.id_token).amr as string[]).includes('mfa'));
    const reused = await api.post('/v1/verify_otp', { otp: code, is_totp: true }, withMfaCookie(await login(user.email)));
    assert.equal(reused.status, 400);
  });

  test("a challenge answers only for its own user, and not without its cookie", async () => {
    const user = await enrolled();
    const other = await enrolled();
    const mfa = withMfaCookie(await login(user.email));
    const crossed = await api.post('/v1/verify_otp', { email: other.email, otp: totpCode(user.secret, clock.now()), is_totp: true }, mfa);
    assert.equal(crossed.status, 401);
    const missing = await api.post('/v1/verify_otp', { email: user.email, otp: totpCode(user.secret, clock.now()), is_totp: true });
    assert.equal(missing.status, 401);
    const forged = await api.post('/v1/verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, { cookie: 'mfa=forged-value' });
    assert.equal(forged.status, 401);
  });

  test('a challenge ends with its cookie, five minutes after the password', async () => {
    const user = await enrolled();
    const mfa = withMfaCookie(await login(user.email));
    clock.advance(5 * 60 + 1);
    const late = await api.post('/v1/verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, mfa);
    assert.equal(late.status, 401);
  });

  test('over GraphQL: the login mutation answers the challenge and verify_otp completes it', async () => {
    const user = await enrolled();
    const gql = async (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const reply = await postGraphql(server, query, variables, headers);
      return { body: reply.body as any, cookies: reply.headers.getSetCookie() };
    };
    const challenged = await gql('mutation($p: LoginRequest!) { login(params: $p) { message should_show_totp_screen access_token } }', { p: { email: user.email, password: PASSWORD } });
    assert.equal(challenged.body.data.login.should_show_totp_screen, true);
    assert.equal(challenged.body.data.login.access_token, null);
    const mfa = { cookie: `mfa=${cookieValue(challenged.cookies, 'mfa')}` };
    const done = await gql('mutation($p: VerifyOTPRequest!) { verify_otp(params: $p) { access_token user { enrolled_mfa_methods } } }', { p: { email: user.email, otp: totpCode(user.secret, clock.now()), is_totp: true } }, mfa);
    assert.equal(typeof done.body.data.verify_otp.access_token, 'string', JSON.stringify(done.body));
    assert.deepEqual(done.body.data.verify_otp.user.enrolled_mfa_methods, ['totp']);
  });

  test('an enrolled user signs in without a code on an instance started with --disable-totp-login or --disable-mfa', async () => {
    const user = await enrolled();
    for (const flag of ['--disable-totp-login', '--disable-mfa']) {
      const off = await startServer([flag, '--database-url', server.app.deps.config.databaseUrl ?? ''], { clock });
      try {
        const reply = await restClient(off).post('/v1/login', { email: user.email, password: PASSWORD });
        assert.equal(reply.status, 200);
        assert.equal(typeof reply.body.access_token, 'string', `${flag}: the token is not withheld`);
        assert.equal(reply.body.should_show_totp_screen, undefined);
      } finally {
        await off.close();
      }
    }
    assert.equal((await login(user.email)).body.should_show_totp_screen, true, 'the instance with TOTP on still asks');
  });

  test('an enrolled factor cannot be replaced by a new setup', async () => {
    const user = await enrolled();
    const done = await api.post('/v1/verify_otp', { otp: totpCode(user.secret, clock.now()), is_totp: true }, withMfaCookie(await login(user.email)));
    const again = await api.post('/v1/totp_mfa_setup', {}, { authorization: `Bearer ${done.body.access_token}` });
    assert.equal(again.status, 400, JSON.stringify(again.body));
    assert.equal(again.body.code, 'failed_precondition');
  });
});

describe('TOTP turned off by flags', () => {
  for (const flag of ['--disable-totp-login', '--disable-mfa']) {
    test(`${flag}: setup and enrolment are refused`, async () => {
      const server = await startServer([flag]);
      try {
        const api = restClient(server);
        const email = `off-${flag.slice(2)}@example.com`;
        const { bearer } = await signedInUser(server, { email, password: PASSWORD });
        const setup = await api.post('/v1/totp_mfa_setup', {}, bearer);
        assert.equal(setup.status, 400);
        assert.equal(setup.body.code, 'failed_precondition');
        const verify = await api.post('/v1/verify_otp', { otp: '123456', is_totp: true }, bearer);
        assert.equal(verify.body.code, 'failed_precondition');
      } finally {
        await server.close();
      }
    });
  }
});

describe('the gate after an emailed magic link', () => {
  const clock = new TestClock();
  let smtp: SmtpSink;
  let server: TestServer;
  before(async () => {
    smtp = await startSmtpSink();
    server = await startServer(['--enable-magic-link-login', ...smtp.flags()], { clock });
  });
  after(async () => {
    await server?.close();
    await smtp?.close();
  });

  test('a magic link of an enrolled user leads to the challenge, not to tokens', async () => {
    const api = restClient(server);
    const email = 'magic-totp@example.com';
    const { bearer } = await signedInUser(server, { email, password: PASSWORD });
    const { secret } = await enrolTotp(server, bearer, clock);

    assert.equal((await api.post('/v1/magic_link_login', { email })).status, 200);
    const mail = await smtp.waitFor((message) => message.envelope.to.includes(email), 15_000);
    const token = new URL(firstLink(mail.text)!).searchParams.get('token');
    assert.ok(token, 'the mail carries the link');
    const followed = await api.post('/v1/verify_email', { token });
    assert.equal(followed.status, 200, JSON.stringify(followed.body));
    assert.equal(followed.body.should_show_totp_screen, true);
    assert.equal(followed.body.access_token, undefined);
    const done = await api.post('/v1/verify_otp', { otp: totpCode(secret, clock.now()), is_totp: true }, { cookie: `mfa=${cookieValue(followed.cookies, 'mfa')}` });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(decodeJwt(done.body.id_token).amr, ['otp', 'mfa']);
  });

  test('the emailed link opened in a browser lands on the login UI\'s MFA step with the mfa cookie', async () => {
    const api = restClient(server);
    const email = 'magic-totp-browser@example.com';
    const { bearer } = await signedInUser(server, { email, password: PASSWORD });
    const { secret } = await enrolTotp(server, bearer, clock);
    assert.equal((await api.post('/v1/magic_link_login', { email })).status, 200);
    const mail = await smtp.waitFor((message) => message.envelope.to.includes(email), 15_000);
    const link = new URL(firstLink(mail.text)!);
    const opened = await fetch(`${server.baseUrl}${link.pathname}${link.search}&state=app-state`, { redirect: 'manual' });
    assert.equal(opened.status, 303);
    const step = new URL(opened.headers.get('location')!);
    assert.equal(step.pathname, '/app/mfa');
    assert.equal(step.searchParams.get('step'), 'verify');
    assert.equal(step.searchParams.get('methods'), 'totp');
    assert.equal(step.searchParams.get('state'), 'app-state');
    const mfa = cookieValue(opened.headers.getSetCookie(), 'mfa');
    assert.ok(mfa, 'the mfa cookie is set');
    assert.equal(cookieValue(opened.headers.getSetCookie(), 'cookie_session'), undefined, 'no session before the second factor');
    const done = await api.post('/v1/verify_otp', { otp: totpCode(secret, clock.now()), is_totp: true }, { cookie: `mfa=${mfa}` });
    assert.equal(done.status, 200, JSON.stringify(done.body));
  });
});
