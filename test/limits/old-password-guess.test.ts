/**
 * update_profile's old_password spends the account's login-failure budget (OWASP ASVS 2.2.1): someone with a
 * stolen access token cannot use it to guess the password past the lockout, and the guesses lock the
 * login too, as the login's guesses lock this check.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { signedUpUser } from '../support/signed-in-user.ts';

const PASSWORD = 'Old!pass123';
const THRESHOLD = 3;

describe('old_password guesses share the login lockout', () => {
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  before(async () => {
    server = await startServer(['--login-lockout-threshold', String(THRESHOLD)]);
    api = restClient(server);
  });
  after(() => server?.close());

  const signedIn = async (email: string): Promise<Record<string, string>> => (await signedUpUser(server, { email, password: PASSWORD })).bearer;

  test('wrong old passwords lock further guesses, the right one included, and the login', async () => {
    const auth = await signedIn('guessed@example.com');
    const change = (old: string) => api.post('/v1/update_profile', { old_password: old, new_password: 'New!pass456', confirm_new_password: 'New!pass456' }, auth);
    for (let i = 0; i < THRESHOLD; i++) {
      const wrong = await change(`Wrong!guess${i}`);
      assert.deepEqual([wrong.status, wrong.body.code], [400, 'invalid_argument']);
    }
    const locked = await change(PASSWORD);
    assert.equal(locked.status, 429, JSON.stringify(locked.body));
    assert.equal(locked.body.code, 'resource_exhausted');
    const login = await api.post('/v1/login', { email: 'guessed@example.com', password: PASSWORD });
    assert.deepEqual([login.status, login.body.message], [401, 'invalid credentials'], 'the shared budget locks the login');
  });

  test('a right old password clears the count', async () => {
    const auth = await signedIn('careful@example.com');
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < THRESHOLD - 1; i++) {
        assert.equal((await api.post('/v1/update_profile', { old_password: 'Wrong!guess', email: 'x@example.com' }, auth)).status, 400);
      }
      const right = await api.post('/v1/update_profile', { old_password: PASSWORD, new_password: PASSWORD, confirm_new_password: PASSWORD }, auth);
      assert.equal(right.status, 200, JSON.stringify(right.body));
    }
  });
});
