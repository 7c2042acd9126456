/**
 * resend_verify_email serves only the identifiers a flag enables (checked before any lookup, so the answer
 * is the same for every address), and logins by an emailed link or a texted code say so in `amr`
 * (RFC 8176 section 2): `otp` for links, `sms` and `otp` for texted codes, never `pwd`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer } from '../support/app.ts';
import { startSmtpSink, firstLink } from '../support/smtp-sink.ts';
import { startSmsSink } from '../support/sms-sink.ts';
import { restClient } from '../support/rest-client.ts';
import { makeUser } from '../messages/support.ts';

describe('resend_verify_email identifiers', () => {
  test('magic links only with --enable-magic-link-login, verification only with --enable-email-verification, others never', async () => {
    const smtp = await startSmtpSink();
    const server = await startServer(smtp.flags());
    try {
      await makeUser(server, { email: 'member@example.com', verified: false });
      const api = restClient(server);
      for (const email of ['member@example.com', 'nobody@example.com']) {
        const magic = await api.post('/v1/resend_verify_email', { email, identifier: 'magic_link_login' });
        assert.equal(magic.status, 400);
        assert.deepEqual(magic.body, { code: 'failed_precondition', message: 'magic link login is disabled for this instance' });
        for (const identifier of ['basic_auth_signup', 'update_email']) {
          const verification = await api.post('/v1/resend_verify_email', { email, identifier });
          assert.deepEqual(verification.body, { code: 'failed_precondition', message: 'email verification is disabled for this instance' });
        }
        for (const identifier of ['invite_member', 'forgot_password', 'verify_otp']) {
          const refused = await api.post('/v1/resend_verify_email', { email, identifier });
          assert.deepEqual(refused.body, { code: 'invalid_argument', message: `invalid identifier: ${identifier}` });
        }
      }
      await server.app.outbox.idle();
      assert.equal(smtp.messages.length, 0, 'no link of a disabled flow was sent');
    } finally {
      await server.close();
      await smtp.close();
    }
  });
});

describe('amr of link and code logins', () => {
  test('magic link and verification link say otp; a texted code says sms and otp', async () => {
    const smtp = await startSmtpSink();
    const sms = await startSmsSink();
    const server = await startServer(['--enable-email-verification', '--enable-magic-link-login', '--enable-phone-verification', ...smtp.flags(), ...sms.flags()]);
    try {
      const api = restClient(server);
      const tokenOf = async (to: string, hint: RegExp) => {
        const mail = await smtp.waitFor((m) => m.envelope.to.includes(to) && hint.test(m.subject));
        return new URL(firstLink(mail.text)!).searchParams.get('token')!;
      };
      const amrOf = (body: any) => decodeJwt(body.id_token).amr;

      await api.post('/v1/signup', { email: 'linked@example.com', password: 'Str0ng!pass', confirm_password: 'Str0ng!pass' });
      const verified = await api.post('/v1/verify_email', { token: await tokenOf('linked@example.com', /verify/i) });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.deepEqual(amrOf(verified.body), ['otp']);
      assert.equal(decodeJwt(verified.body.id_token).login_method, 'verify_email');

      assert.equal((await api.post('/v1/magic_link_login', { email: 'magic@example.com' })).status, 200);
      const magic = await api.post('/v1/verify_email', { token: await tokenOf('magic@example.com', /sign-in/i) });
      assert.equal(magic.status, 200, JSON.stringify(magic.body));
      assert.deepEqual(amrOf(magic.body), ['otp']);
      assert.equal(decodeJwt(magic.body.id_token).login_method, 'magic_link_login');

      const phone = '+15557770003';
      await api.post('/v1/signup', { phone_number: phone, password: 'Ph0ne!pass', confirm_password: 'Ph0ne!pass' });
      await server.app.outbox.idle();
      const code = /\b(\d{6})\b/.exec(sms.requests.at(-1)!.form.Body!)![1]!;
      const texted = await api.post('/v1/verify_otp', { phone_number: phone, otp: code });
      assert.equal(texted.status, 200, JSON.stringify(texted.body));
      assert.deepEqual(amrOf(texted.body), ['sms', 'otp']);
      assert.equal(decodeJwt(texted.body.id_token).login_method, 'mobile_otp');

      const password = await api.post('/v1/login', { email: 'linked@example.com', password: 'Str0ng!pass' });
      assert.deepEqual(amrOf(password.body), ['pwd'], 'a password login still says pwd');
    } finally {
      await server.close();
      await smtp.close();
      await sms.close();
    }
  });
});
