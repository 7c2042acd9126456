/**
 * Account flows end to end over real HTTP with a real SMTP server (docs/api-overview.md#states-and-transitions,
 * docs/operations.md): signup with email
 * verification, the emailed link under --url, verify_email, login, profile, update_profile, logout (tokens
 * fail at once), revoke/enable access, forgot/reset password, deactivation, and the outbox events.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as admin } from '../support/admin-client.ts';
import { startSmtpSink, firstLink, type SmtpSink } from '../support/smtp-sink.ts';
import { restClient, cookieValue } from '../support/rest-client.ts';
import { listEvents } from '../../server/modules/events/index.ts';
import { MessageJob } from '../../server/modules/messages/index.ts';

const PASSWORD = 'Str0ng!pass';

describe('account flows with email verification', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let api: ReturnType<typeof restClient>;
  before(async () => {
    smtp = await startSmtpSink();
    // `*` keeps any calling page allowed (CSRF); the explicit origin is what allows redirects to the app.
    server = await startServer(['--enable-email-verification', '--url', 'https://auth.example.com', '--allowed-origins', '*,https://app.example.com', ...smtp.flags()]);
    api = restClient(server);
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  async function tokenFromMail(to: string, subjectHint: RegExp): Promise<{ link: URL; token: string }> {
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(to) && subjectHint.test(m.subject + (m.text ?? '')));
    const link = new URL(firstLink(mail.text)!);
    return { link, token: link.searchParams.get('token')! };
  }

  test('signup sends a verification link built from --url carrying redirect_uri; verify_email signs in', async () => {
    const signup = await api.post('/v1/signup', {
      email: 'Ada@Example.com', password: PASSWORD, confirm_password: PASSWORD, given_name: 'Ada',
      redirect_uri: 'https://app.example.com/welcome',
    });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    assert.equal(signup.body.access_token, undefined, 'no tokens before verification');
    assert.equal(signup.body.user.email, 'ada@example.com');
    const refused = await api.post('/v1/login', { email: 'ada@example.com', password: PASSWORD });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /not verified/);

    const { link, token } = await tokenFromMail('ada@example.com', /verif/i);
    assert.equal(link.origin, 'https://auth.example.com');
    assert.equal(link.pathname, '/verify_email');
    assert.equal(link.searchParams.get('redirect_uri'), 'https://app.example.com/welcome');

    const pending = await api.post('/v1/admin/verification_requests', {}, admin);
    assert.equal(pending.status, 200);
    const request = pending.body.verification_requests.find((r: any) => r.email === 'ada@example.com');
    assert.equal(request.identifier, 'basic_auth_signup');
    assert.equal(request.token, undefined, 'verification tokens are stored only as hashes');

    const verified = await api.post('/v1/verify_email', { token });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.ok(verified.body.access_token && verified.body.id_token);
    assert.ok(verified.body.expires_in > 1700 && verified.body.expires_in <= 1800, 'expires_in is seconds until expiry');
    assert.equal(verified.body.user.email_verified, true);
    assert.ok(cookieValue(verified.cookies, 'cookie_session'));
    assert.ok(verified.cookies.some((c) => c.startsWith('cookie_session_domain=') && /Domain=example\.com/.test(c)));
    const again = await api.post('/v1/verify_email', { token });
    assert.equal(again.status, 400, 'a verification token is single use');
  });

  test('login, profile by bearer and by cookie, update_profile, logout invalidates at once', async () => {
    const login = await api.post('/v1/login', { email: 'ADA@example.com', password: PASSWORD });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(login.body.message, 'Logged in successfully');
    const bearer = { authorization: `Bearer ${login.body.access_token}` };
    const byBearer = await api.get('/v1/profile', bearer);
    assert.equal(byBearer.status, 200);
    assert.equal(byBearer.body.given_name, 'Ada');
    const session = cookieValue(login.cookies, 'cookie_session')!;
    const byCookie = await api.get('/v1/profile', { cookie: `cookie_session=${session}` });
    assert.equal(byCookie.status, 200);

    const update = await api.post('/v1/update_profile', { family_name: 'Lovelace', app_data: { theme: 'dark' } }, bearer);
    assert.equal(update.status, 200, JSON.stringify(update.body));
    const after = await api.get('/v1/profile', bearer);
    assert.equal(after.body.family_name, 'Lovelace');
    assert.deepEqual(after.body.app_data, { theme: 'dark' });

    const valid = await api.post('/v1/validate_jwt_token', { token_type: 'access_token', token: login.body.access_token });
    assert.equal(valid.body.is_valid, true);
    assert.equal(valid.body.claims.iss, 'https://auth.example.com');

    const logout = await api.post('/v1/logout', {}, bearer);
    assert.equal(logout.status, 200);
    assert.equal((await api.get('/v1/profile', bearer)).status, 401);
    assert.equal((await api.post('/v1/validate_jwt_token', { token_type: 'access_token', token: login.body.access_token })).status, 401);
    assert.equal((await api.get('/v1/profile', { cookie: `cookie_session=${session}` })).status, 401);
  });

  test('wrong password and unknown user answer the same message', async () => {
    const wrong = await api.post('/v1/login', { email: 'ada@example.com', password: 'Wr0ng!pass' });
    const unknown = await api.post('/v1/login', { email: 'nobody@example.com', password: 'Wr0ng!pass' });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(wrong.body.message, 'invalid credentials');
  });

  test('revoke_access stops existing tokens at once and login; enable_access restores login', async () => {
    const login = await api.post('/v1/login', { email: 'ada@example.com', password: PASSWORD });
    const bearer = { authorization: `Bearer ${login.body.access_token}` };
    const userId = login.body.user.id;
    assert.equal((await api.post('/v1/admin/revoke_access', { user_id: userId }, admin)).status, 200);
    assert.equal((await api.get('/v1/profile', bearer)).status, 401);
    const blocked = await api.post('/v1/login', { email: 'ada@example.com', password: PASSWORD });
    assert.equal(blocked.status, 403);
    const user = await api.post('/v1/admin/user', { id: userId }, admin);
    assert.ok(user.body.revoked_timestamp > 0);
    assert.equal((await api.post('/v1/admin/enable_access', { user_id: userId }, admin)).status, 200);
    assert.equal((await api.post('/v1/login', { email: 'ada@example.com', password: PASSWORD })).status, 200);
  });

  test('forgot_password emails a reset link; reset_password ends every session', async () => {
    const login = await api.post('/v1/login', { email: 'ada@example.com', password: PASSWORD });
    const forgot = await api.post('/v1/forgot_password', { email: 'ada@example.com', redirect_uri: 'https://app.example.com/reset' });
    assert.equal(forgot.status, 200);
    const unknown = await api.post('/v1/forgot_password', { email: 'nobody@example.com' });
    assert.deepEqual(unknown.body, forgot.body, 'no account enumeration');
    const { link, token } = await tokenFromMail('ada@example.com', /reset|password/i);
    assert.equal(link.origin, 'https://auth.example.com');
    assert.equal(link.searchParams.get('redirect_uri'), 'https://app.example.com/reset');
    const reset = await api.post('/v1/reset_password', { token, password: 'N3w!passw0rd', confirm_password: 'N3w!passw0rd' });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal((await api.get('/v1/profile', { authorization: `Bearer ${login.body.access_token}` })).status, 401);
    assert.equal((await api.post('/v1/login', { email: 'ada@example.com', password: PASSWORD })).status, 401);
    assert.equal((await api.post('/v1/login', { email: 'ada@example.com', password: 'N3w!passw0rd' })).status, 200);
  });

  test('deactivate_account soft-deletes: tokens and login stop working', async () => {
    const login = await api.post('/v1/login', { email: 'ada@example.com', password: 'N3w!passw0rd' });
    const bearer = { authorization: `Bearer ${login.body.access_token}` };
    assert.equal((await api.post('/v1/deactivate_account', {}, bearer)).status, 200);
    assert.equal((await api.get('/v1/profile', bearer)).status, 401);
    assert.equal((await api.post('/v1/login', { email: 'ada@example.com', password: 'N3w!passw0rd' })).status, 401);
  });

  test('the outbox holds the user events of these flows', async () => {
    const events = await listEvents(server.app.deps.storage.fork(), { limit: 100 });
    const names = new Set(events.map((e) => e.eventName));
    for (const name of ['user.created', 'user.signup', 'user.login', 'user.access_revoked', 'user.access_enabled', 'user.deactivated']) {
      assert.ok(names.has(name), `missing event ${name}`);
    }
  });
});

describe('signup without verification and feature switches', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--roles', 'user,editor,admin', '--protected-roles', 'admin', '--enable-strong-password=false']);
  });
  after(() => server.close());

  test('signup signs in at once and sets the session cookies', async () => {
    const api = restClient(server);
    const res = await api.post('/v1/signup', { email: 'grace@example.com', password: 'plainpass', confirm_password: 'plainpass', roles: ['editor'] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.message, 'Signed up successfully.');
    assert.deepEqual(res.body.user.roles, ['editor']);
    assert.ok(cookieValue(res.cookies, 'cookie_session'));
    const dup = await api.post('/v1/signup', { email: 'GRACE@example.com', password: 'plainpass', confirm_password: 'plainpass' });
    assert.equal(dup.body.message, 'user with given email already exists');
    const protectedRole = await api.post('/v1/signup', { email: 'mallory@example.com', password: 'plainpass', confirm_password: 'plainpass', roles: ['admin'] });
    assert.equal(protectedRole.status, 400);
    const lacking = await api.post('/v1/login', { email: 'grace@example.com', password: 'plainpass', roles: ['admin'] });
    assert.equal(lacking.status, 403);
  });

  test('disabled features answer a clear error', async () => {
    const off = await startServer(['--enable-signup=false', '--enable-basic-authentication=false']);
    try {
      const api = restClient(off);
      const signup = await api.post('/v1/signup', { email: 'x@example.com', password: 'Str0ng!pass', confirm_password: 'Str0ng!pass' });
      assert.equal(signup.status, 400);
      assert.match(signup.body.message, /signup is disabled/);
      const login = await api.post('/v1/login', { email: 'x@example.com', password: 'Str0ng!pass' });
      assert.match(login.body.message, /basic authentication is disabled/);
      const magic = await api.post('/v1/magic_link_login', { email: 'x@example.com' });
      assert.match(magic.body.message, /magic link login is disabled/);
      const meta = await api.get('/v1/meta');
      assert.equal(meta.body.is_sign_up_enabled, false);
      assert.equal(meta.body.is_basic_authentication_enabled, false);
    } finally {
      await off.close();
    }
  });
});

describe('the emailed verification link (GET /verify_email)', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  before(async () => {
    smtp = await startSmtpSink();
    server = await startServer(['--enable-email-verification', '--allowed-origins', 'https://app.example.com', ...smtp.flags()]);
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  test('verifies, sets the session cookies and lands on the allowed redirect_uri', async () => {
    const api = restClient(server, { origin: 'https://app.example.com' });
    const signup = await api.post('/v1/signup', {
      email: 'link@example.com', password: PASSWORD, confirm_password: PASSWORD, redirect_uri: 'https://app.example.com/done',
    });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const mail = await smtp.waitFor((m) => m.envelope.to.includes('link@example.com'));
    const link = new URL(firstLink(mail.text)!);
    const res = await fetch(`${server.baseUrl}${link.pathname}${link.search}`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), 'https://app.example.com/done');
    assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('cookie_session=') && !c.startsWith('cookie_session=;')));
    const reused = await fetch(`${server.baseUrl}${link.pathname}${link.search}`, { redirect: 'manual' });
    assert.equal(reused.status, 400, 'a used link shows the error page here, it does not redirect');
    assert.equal(reused.headers.get('location'), null);
    assert.match(reused.headers.get('content-type')!, /^text\/html/);
    assert.match(await reused.text(), /invalid or expired token/);
  });

  test('a redirect_uri outside the allowed origins is refused', async () => {
    const api = restClient(server, { origin: 'https://app.example.com' });
    const res = await api.post('/v1/signup', {
      email: 'evil@example.com', password: PASSWORD, confirm_password: PASSWORD, redirect_uri: 'https://evil.example.net/steal',
    });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /redirect_uri is not allowed/);
    const probe = await fetch(`${server.baseUrl}/verify_email?token=nope&redirect_uri=https://evil.example.net/x`, { redirect: 'manual' });
    assert.equal(probe.status, 400, 'an unknown redirect target is never followed');
  });
});

describe('session refresh from the cookie', () => {
  test('session answers fresh tokens for a live cookie, rotates it, and refuses the old one', async () => {
    const server = await startServer(['--enable-strong-password=false']);
    try {
      const api = restClient(server);
      const signup = await api.post('/v1/signup', { email: 'sess@example.com', password: 'plainpass', confirm_password: 'plainpass' });
      const first = cookieValue(signup.cookies, 'cookie_session')!;
      const refreshed = await api.post('/v1/session', {}, { cookie: `cookie_session=${first}` });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.ok(refreshed.body.access_token);
      assert.equal(refreshed.body.user.email, 'sess@example.com');
      const second = cookieValue(refreshed.cookies, 'cookie_session')!;
      assert.ok(second && second !== first, 'the session cookie rotates');
      assert.equal((await api.post('/v1/session', {}, { cookie: `cookie_session=${first}` })).status, 401);
      const viaGraphql = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie: `cookie_session_domain=${second}` },
        body: JSON.stringify({ query: 'query { session { access_token expires_in user { email } } }' }),
      });
      const body = await viaGraphql.json();
      assert.equal(body.data.session.user.email, 'sess@example.com');
      assert.ok(body.data.session.expires_in > 1700);
    } finally {
      await server.close();
    }
  });
});

describe('password change through update_profile', () => {
  test('needs the old password, then signs out every other session but keeps the caller', async () => {
    const server = await startServer();
    try {
      const api = restClient(server);
      await api.post('/v1/signup', { email: 'pw@example.com', password: PASSWORD, confirm_password: PASSWORD });
      const here = await api.post('/v1/login', { email: 'pw@example.com', password: PASSWORD });
      const elsewhere = await api.post('/v1/login', { email: 'pw@example.com', password: PASSWORD });
      const mine = { authorization: `Bearer ${here.body.access_token}` };
      const change = { new_password: 'An0ther!pass', confirm_new_password: 'An0ther!pass' };
      const noOld = await api.post('/v1/update_profile', change, mine);
      assert.equal(noOld.status, 400);
      const wrongOld = await api.post('/v1/update_profile', { ...change, old_password: 'Wr0ng!pass' }, mine);
      assert.equal(wrongOld.status, 400);
      const ok = await api.post('/v1/update_profile', { ...change, old_password: PASSWORD }, mine);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal((await api.get('/v1/profile', mine)).status, 200, 'the caller stays signed in');
      assert.equal((await api.get('/v1/profile', { authorization: `Bearer ${elsewhere.body.access_token}` })).status, 401);
      assert.equal((await api.post('/v1/login', { email: 'pw@example.com', password: 'An0ther!pass' })).status, 200);
    } finally {
      await server.close();
    }
  });
});

describe('when the SMTP server is down', () => {
  test('the call succeeds, nothing is sent inside the request, and the job is marked failed after its last attempt', async () => {
    // A sink that is started and stopped leaves a port nobody listens on.
    const gone = await startSmtpSink();
    const flags = gone.flags();
    await gone.close();
    const server = await startServer(['--enable-email-verification', ...flags], { outbox: { retryBaseMs: 20, maxAttempts: 3 } });
    try {
      const api = restClient(server);
      const res = await api.post('/v1/signup', { email: 'down@example.com', password: PASSWORD, confirm_password: PASSWORD });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.message, 'Verification email has been sent. Please check your inbox');
      const user = await api.post('/v1/admin/user', { email: 'down@example.com' }, admin);
      assert.equal(user.status, 200);
      const graphql = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: JSON.stringify({ query: 'mutation { resend_verify_email(params: {email: "down@example.com", identifier: "basic_auth_signup"}) { message } }' }),
      });
      const answer = await graphql.json();
      assert.equal(answer.errors, undefined, JSON.stringify(answer));
      assert.equal(answer.data.resend_verify_email.message, 'Verification email has been sent. Please check your inbox');
      await server.app.outbox.idle();
      const jobs = await server.app.deps.storage.fork().find(MessageJob, {});
      assert.equal(jobs.length, 2);
      for (const job of jobs) {
        assert.equal(job.status, 'failed');
        assert.equal(job.attempts, 3);
        assert.equal(job.lastError, 'failed to send email');
      }
    } finally {
      await server.close();
    }
  });
});
