/**
 * No open redirect (OWASP ASVS 5.1.5; docs/security-lessons.md): GET /verify_email lands only on
 * the redirect_uri stored with the verification request when it was issued, never on the query's, carries
 * `state` as a parameter of that target only, and answers a bad token with an HTML page on this server.
 * With the default --allowed-origins * no foreign redirect_uri is accepted at all.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { startSmtpSink, firstLink, type SmtpSink } from '../support/smtp-sink.ts';
import { restClient } from '../support/rest-client.ts';

const PASSWORD = 'Str0ng!pass';
const EVIL = 'https://evil.example/steal';

async function linkFor(smtp: SmtpSink, to: string): Promise<URL> {
  const mail = await smtp.waitFor((m) => m.envelope.to.includes(to));
  return new URL(firstLink(mail.text)!);
}

describe('GET /verify_email with default flags', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  before(async () => {
    smtp = await startSmtpSink();
    server = await startServer(['--enable-email-verification', ...smtp.flags()]);
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  test('an invalid token with a redirect_uri shows the error page here, nothing of the query reflected', async () => {
    const probe = `${server.baseUrl}/verify_email?token=%3Cscript%3Ex%3C/script%3E&redirect_uri=${encodeURIComponent(EVIL)}&state=%3Cb%3E`;
    const res = await fetch(probe, { redirect: 'manual' });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.match(res.headers.get('content-security-policy')!, /default-src 'none'/);
    const html = await res.text();
    assert.match(html, /invalid or expired token/);
    assert.ok(!html.includes('<script>') && !html.includes('<b>') && !html.includes('evil.example'), html);
  });

  test('a valid token never follows the query redirect_uri; state rides on this server target only', async () => {
    const api = restClient(server);
    const signup = await api.post('/v1/signup', { email: 'valid@example.com', password: PASSWORD, confirm_password: PASSWORD });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const link = await linkFor(smtp, 'valid@example.com');
    const token = link.searchParams.get('token')!;
    const res = await fetch(`${server.baseUrl}/verify_email?token=${token}&redirect_uri=${encodeURIComponent(EVIL)}&state=abc`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), 'http://127.0.0.1:8080/app?state=abc');
  });

  test('--allowed-origins * does not make a foreign redirect_uri acceptable', async () => {
    const api = restClient(server);
    const res = await api.post('/v1/signup', { email: 'foreign@example.com', password: PASSWORD, confirm_password: PASSWORD, redirect_uri: EVIL });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /redirect_uri is not allowed/);
    const forgot = await api.post('/v1/forgot_password', { email: 'foreign@example.com', redirect_uri: EVIL });
    assert.equal(forgot.status, 400);
  });
});

describe('GET /verify_email with an allowed application origin', () => {
  test('lands on the redirect_uri bound when the link was issued, not on a different allowed one in the query', async () => {
    const smtp = await startSmtpSink();
    const server = await startServer(['--enable-email-verification', '--allowed-origins', '*,https://app.example.com', ...smtp.flags()]);
    try {
      const api = restClient(server);
      const signup = await api.post('/v1/signup', {
        email: 'bound@example.com', password: PASSWORD, confirm_password: PASSWORD, redirect_uri: 'https://app.example.com/welcome',
      });
      assert.equal(signup.status, 200, JSON.stringify(signup.body));
      const token = (await linkFor(smtp, 'bound@example.com')).searchParams.get('token')!;
      const other = encodeURIComponent('https://app.example.com/elsewhere');
      const res = await fetch(`${server.baseUrl}/verify_email?token=${token}&redirect_uri=${other}&state=s1`, { redirect: 'manual' });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), 'https://app.example.com/welcome?state=s1');
    } finally {
      await server.close();
      await smtp.close();
    }
  });
});
