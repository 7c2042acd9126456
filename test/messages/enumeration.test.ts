/**
 * No account enumeration (OWASP ASVS 2.5.x; README "No enumeration"): forgot_password,
 * resend_verify_email, magic_link_login and reset_password answer the same status, body and headers for a
 * known and an unknown address or phone number, whatever the account's state and whether mail or SMS is
 * configured. The outbox worker decides afterwards whether anything is sent; each pair also checks that
 * the known address really got its message, so the sameness is not that of two failures.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { postGraphql } from '../graphql/client.ts';
import { findUserByEmail } from '../../server/modules/users/index.ts';
import { assertSameAnswer, makeUser, rawPost } from './support.ts';

const NEW_PASSWORD = 'N3w!passw0rd';

describe('known and unknown addresses get the same answer (mail and SMS configured, signup off)', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let sms: SmsSink;
  before(async () => {
    smtp = await startSmtpSink();
    sms = await startSmsSink();
    server = await startServer([
      '--enable-email-verification', '--enable-magic-link-login', '--enable-signup=false', ...smtp.flags(), ...sms.flags(),
    ]);
    await makeUser(server, { email: 'known@example.com' });
    await makeUser(server, { email: 'unverified@example.com', verified: false });
    await makeUser(server, { email: 'revoked@example.com', revoked: true });
    await makeUser(server, { email: 'phone@example.com', phone: '+15557770001' });
  });
  after(async () => {
    await server.close();
    await smtp.close();
    await sms.close();
  });

  const mailsTo = (address: string) => smtp.messages.filter((m) => m.envelope.to.includes(address)).length;

  test('forgot_password by email', async () => {
    const known = await rawPost(server, '/v1/forgot_password', { email: 'known@example.com' });
    const unknown = await rawPost(server, '/v1/forgot_password', { email: 'nobody@example.com' });
    assert.equal(known.status, 200, known.body);
    assertSameAnswer(known, unknown, 'forgot_password');
    await server.app.outbox.idle();
    assert.equal(mailsTo('known@example.com'), 1);
    assert.equal(mailsTo('nobody@example.com'), 0);
  });

  test('forgot_password for a revoked account', async () => {
    const revoked = await rawPost(server, '/v1/forgot_password', { email: 'revoked@example.com' });
    const unknown = await rawPost(server, '/v1/forgot_password', { email: 'nobody2@example.com' });
    assertSameAnswer(revoked, unknown, 'forgot_password revoked');
    await server.app.outbox.idle();
    assert.equal(mailsTo('revoked@example.com'), 0, 'a revoked account gets no reset link');
  });

  test('forgot_password by phone', async () => {
    const known = await rawPost(server, '/v1/forgot_password', { phone_number: '+15557770001' });
    const unknown = await rawPost(server, '/v1/forgot_password', { phone_number: '+15557779999' });
    assert.equal(known.status, 200, known.body);
    assertSameAnswer(known, unknown, 'forgot_password phone');
    await server.app.outbox.idle();
    assert.deepEqual(sms.requests.map((r) => r.form.To), ['+15557770001']);
  });

  test('reset_password by phone: an unknown number fails exactly like a wrong code, also once the code is used up', async () => {
    const code = /\b(\d{6})\b/.exec(sms.requests.at(-1)!.form.Body!)![1]!;
    const wrongCode = code === '000000' ? '111111' : '000000';
    const attempt = (phone: string) =>
      rawPost(server, '/v1/reset_password', { phone_number: phone, otp: wrongCode, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    for (let i = 0; i < 6; i++) {
      const known = await attempt('+15557770001');
      const unknown = await attempt('+15557779999');
      assert.equal(known.status, 400, known.body);
      assertSameAnswer(known, unknown, `reset_password phone, attempt ${i + 1}`);
    }
  });

  test('resend_verify_email', async () => {
    const known = await rawPost(server, '/v1/resend_verify_email', { email: 'unverified@example.com', identifier: 'basic_auth_signup' });
    const verified = await rawPost(server, '/v1/resend_verify_email', { email: 'known@example.com', identifier: 'basic_auth_signup' });
    const unknown = await rawPost(server, '/v1/resend_verify_email', { email: 'nobody@example.com', identifier: 'basic_auth_signup' });
    assert.equal(known.status, 200, known.body);
    assertSameAnswer(known, unknown, 'resend_verify_email');
    assertSameAnswer(verified, unknown, 'resend_verify_email verified');
    await server.app.outbox.idle();
    assert.equal(mailsTo('unverified@example.com'), 1);
  });

  test('magic_link_login with signup disabled, and for a revoked account', async () => {
    const known = await rawPost(server, '/v1/magic_link_login', { email: 'known@example.com' });
    const unknown = await rawPost(server, '/v1/magic_link_login', { email: 'stranger@example.com' });
    const revoked = await rawPost(server, '/v1/magic_link_login', { email: 'revoked@example.com' });
    assert.equal(known.status, 200, known.body);
    assertSameAnswer(known, unknown, 'magic_link_login signup off');
    assertSameAnswer(revoked, unknown, 'magic_link_login revoked');
    await server.app.outbox.idle();
    assert.equal(smtp.messages.filter((m) => m.envelope.to.includes('known@example.com') && /sign/i.test(m.subject)).length, 1);
    assert.equal(mailsTo('stranger@example.com'), 0);
    assert.equal(mailsTo('revoked@example.com'), 0);
    assert.equal(await findUserByEmail(server.app.deps.storage.fork(), 'stranger@example.com'), null, 'signup is off: no account');
  });

  test('magic_link_login over GraphQL', async () => {
    const query = 'mutation($email: String!) { magic_link_login(params: {email: $email}) { message } }';
    const known = await postGraphql(server, query, { email: 'known@example.com' });
    const unknown = await postGraphql(server, query, { email: 'stranger2@example.com' });
    assert.equal(known.status, unknown.status);
    assert.deepEqual(known.body, unknown.body);
    assert.ok(known.body.data?.magic_link_login, JSON.stringify(known.body));
  });
});

describe('a feature that is not configured is refused the same way for every address', () => {
  let server: TestServer;
  before(async () => {
    // No --smtp-* and no --twilio-* flags. Email verification and magic links cannot be switched on then (the
    // start is refused, test/config), so those two flows are refused as off, again the same for every address.
    server = await startServer(['--enable-signup=false']);
    await makeUser(server, { email: 'known@example.com', phone: '+15557770002' });
    await makeUser(server, { email: 'unverified@example.com', verified: false });
  });
  after(() => server.close());

  test('mail and SMS flows without a mail or SMS server', async () => {
    const pairs: [string, Record<string, string>, Record<string, string>][] = [
      ['/v1/forgot_password', { email: 'known@example.com' }, { email: 'nobody@example.com' }],
      ['/v1/forgot_password', { phone_number: '+15557770002' }, { phone_number: '+15557779998' }],
      ['/v1/magic_link_login', { email: 'known@example.com' }, { email: 'nobody@example.com' }],
      ['/v1/resend_verify_email', { email: 'unverified@example.com', identifier: 'basic_auth_signup' }, { email: 'nobody@example.com', identifier: 'basic_auth_signup' }],
    ];
    for (const [path, knownBody, unknownBody] of pairs) {
      const known = await rawPost(server, path, knownBody);
      const unknown = await rawPost(server, path, unknownBody);
      assert.equal(known.status, 400, `${path}: ${known.body}`);
      assert.equal(JSON.parse(known.body).code, 'failed_precondition');
      assertSameAnswer(known, unknown, path);
    }
  });
});
