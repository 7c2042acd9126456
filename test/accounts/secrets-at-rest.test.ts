/**
 * No password, token or verification secret appears in clear in the database or the logs (OWASP ASVS 2.4.1 and
 * 7.1.1; guide "Security is the product"). Runs real flows at debug log level, then reads every row of every
 * table and every log line looking for each secret the flows handled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, CLIENT_SECRET, TEST_JWT_SECRET } from '../support/app.ts';
import { startSmtpSink, firstLink } from '../support/smtp-sink.ts';
import { restClient, cookieValue } from '../support/rest-client.ts';
import { createLogger } from '../../server/kernel/logger.ts';

test('secrets handled by the account flows are neither stored nor logged in clear', async () => {
  const logLines: string[] = [];
  const logger = createLogger('trace', { write: (line: string) => void logLines.push(line) });
  const smtp = await startSmtpSink();
  const server = await startServer(['--enable-email-verification', '--log-level', 'trace', ...smtp.flags()], { logger });
  const secrets: Record<string, string> = { ADMIN_SECRET, CLIENT_SECRET, jwtSecret: TEST_JWT_SECRET };
  try {
    const api = restClient(server);
    const password = 'Cl3ar!textPassword';
    secrets.password = password;
    await api.post('/v1/signup', { email: 'secret@example.com', password, confirm_password: password });
    const mail = await smtp.waitFor((m) => m.envelope.to.includes('secret@example.com'));
    secrets.verificationToken = new URL(firstLink(mail.text)!).searchParams.get('token')!;
    const verified = await api.post('/v1/verify_email', { token: secrets.verificationToken });
    const login = await api.post('/v1/login', { email: 'secret@example.com', password, scope: ['openid', 'offline_access'] });
    assert.equal(login.status, 200);
    secrets.accessToken = login.body.access_token;
    secrets.refreshToken = login.body.refresh_token;
    secrets.sessionCookie = cookieValue(login.cookies, 'cookie_session')!;
    secrets.firstSessionCookie = cookieValue(verified.cookies, 'cookie_session')!;
    await api.post('/v1/forgot_password', { email: 'secret@example.com' });
    const reset = await smtp.waitFor((m) => m.envelope.to.includes('secret@example.com') && /reset/i.test(m.text ?? ''));
    secrets.resetToken = new URL(firstLink(reset.text)!).searchParams.get('token')!;
    const adminLogin = await api.post('/v1/admin/login', { admin_secret: ADMIN_SECRET });
    secrets.adminCookie = cookieValue(adminLogin.cookies, 'service-admin')!;
    // A failing call with a secret in the body must not echo it either.
    await api.post('/v1/login', { email: 'secret@example.com', password: 'Wr0ng!butSecretish' });
    secrets.wrongPassword = 'Wr0ng!butSecretish';

    const em = server.app.deps.storage.fork();
    const connection = em.getConnection();
    const tables = (await connection.execute("select name from sqlite_master where type = 'table'")) as { name: string }[];
    assert.ok(tables.length >= 8, 'expected the server tables');
    const dump: string[] = [];
    for (const { name } of tables) dump.push(JSON.stringify(await connection.execute(`select * from "${name}"`)));
    const database = dump.join('\n');
    const logs = logLines.join('');
    assert.ok(logs.length > 0, 'the logger captured lines');
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(value && value.length >= 8, `secret ${name} was captured`);
      assert.ok(!database.includes(value), `${name} is stored in clear`);
      assert.ok(!logs.includes(value), `${name} appears in the logs`);
    }
  } finally {
    await server.close();
    await smtp.close();
  }
});
