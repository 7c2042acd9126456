/**
 * Logins refused with 503 while the database is down do not count toward the account's lockout
 * (OWASP ASVS 2.2.1 counts failed attempts; docs/deployment.md#when-the-database-is-down): a client that keeps
 * retrying through an outage signs in at once when the database is back, instead of being locked out for the
 * 20-minute window. A wrong password still counts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/throwaway-postgres.ts';

const PASSWORD = 'Outage-Lockout-42!';
const THRESHOLD = 3;

describe('login lockout across a database outage', () => {
  let pg: ThrowawayPostgres;
  let server: TestServer;

  const login = (email: string, password: string) =>
    fetch(`${server.baseUrl}/v1/login`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  before(async () => {
    pg = await startThrowawayPostgres();
    server = await startServer([...pg.flags, '--login-lockout-threshold', String(THRESHOLD)]);
  });

  after(async () => {
    await server?.close();
    await pg?.destroy();
  });

  test('logins refused with 503 during the outage spend no lockout attempt', async () => {
    const email = 'outage-lockout@example.com';
    const signup = await fetch(`${server.baseUrl}/v1/signup`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, confirm_password: PASSWORD }),
    });
    assert.equal(signup.status, 200, await signup.text());
    await pg.stop('fast');
    try {
      for (let i = 0; i < THRESHOLD * 3; i++) {
        const res = await login(email, PASSWORD);
        assert.equal(res.status, 503, `attempt ${i} during the outage: ${await res.text()}`);
      }
    } finally {
      await pg.start();
    }
    const back = await login(email, PASSWORD);
    assert.equal(back.status, 200, `the right password signs in once the database is back: ${await back.text()}`);
  });

  test('wrong passwords still lock the account', async () => {
    const email = 'outage-lockout-wrong@example.com';
    const signup = await fetch(`${server.baseUrl}/v1/signup`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, confirm_password: PASSWORD }),
    });
    assert.equal(signup.status, 200, await signup.text());
    for (let i = 0; i < THRESHOLD; i++) assert.equal((await login(email, 'Wrong-password-1!')).status, 401);
    assert.equal((await login(email, PASSWORD)).status, 401, 'locked: the right password is refused like a wrong one');
  });
});
