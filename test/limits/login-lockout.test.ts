/**
 * Login lockout (OWASP ASVS 2.2.1): after --login-lockout-threshold failed logins an account is locked, and
 * the locked answer is exactly a wrong password's (status, body, and about the same argon2 work), even
 * for the right password and for accounts that do not exist, so it reveals neither the lock, the password
 * nor the account. /metrics counts logins by outcome.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { restClient } from '../support/rest-client.ts';
import { postGraphql, onlyError } from '../graphql/client.ts';
import { metricValue, scrape } from './support.ts';

const PASSWORD = 'L0ckout!pass';
const THRESHOLD = 3;

describe('login lockout', () => {
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  before(async () => {
    server = await startServer(['--login-lockout-threshold', String(THRESHOLD)]);
    api = restClient(server);
    for (const email of ['locked@example.com', 'other@example.com', 'reset@example.com']) await signedUpUser(server, { email, password: PASSWORD });
  });
  after(() => server?.close());

  const login = (email: string, password: string) => api.post('/v1/login', { email, password });

  test('at the threshold the account locks: even the right password gets the wrong-password answer', async () => {
    const failures = [];
    for (let i = 0; i < THRESHOLD; i++) failures.push(await login('locked@example.com', 'wrong-password'));
    for (const failure of failures) assert.deepEqual([failure.status, failure.body], [401, { code: 'unauthenticated', message: 'invalid credentials' }]);
    const locked = await login('Locked@Example.com ', PASSWORD);
    assert.deepEqual([locked.status, locked.body], [failures[0]!.status, failures[0]!.body], 'same answer as a wrong password');
    const res = await fetch(`${server.baseUrl}/v1/login`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'locked@example.com', password: PASSWORD }),
    });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('retry-after'), null, 'no hint that a lock exists');
    // Over GraphQL the same refusal: UNAUTHENTICATED, `invalid credentials`.
    const graphql = await postGraphql(server, 'mutation($p: LoginRequest!) { login(params: $p) { message } }', { p: { email: 'locked@example.com', password: PASSWORD } });
    assert.deepEqual(onlyError(graphql), { message: 'invalid credentials', code: 'UNAUTHENTICATED' });
    // Other accounts are not affected.
    assert.equal((await login('other@example.com', PASSWORD)).status, 200);
  });

  test('an unknown account locks the same way, so the lock reveals nothing about existence', async () => {
    const answers = [];
    for (let i = 0; i <= THRESHOLD + 1; i++) answers.push(await login('nobody@example.com', PASSWORD));
    for (const answer of answers) assert.deepEqual([answer.status, answer.body], [401, { code: 'unauthenticated', message: 'invalid credentials' }]);
  });

  test('a successful login clears the failures', async () => {
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < THRESHOLD - 1; i++) assert.equal((await login('reset@example.com', 'wrong-password')).status, 401);
      assert.equal((await login('reset@example.com', PASSWORD)).status, 200, `round ${round}`);
    }
  });

  test('concurrent wrong guesses cannot pass the threshold before the count catches up', async () => {
    await signedUpUser(server, { email: 'burst@example.com', password: PASSWORD });
    const before = await scrape(server);
    const failuresBefore = metricValue(before, 'portcullis_logins_total', { outcome: 'failure' });
    const lockedBefore = metricValue(before, 'portcullis_logins_total', { outcome: 'locked' });
    const guesses = await Promise.all(Array.from({ length: 12 }, () => login('burst@example.com', 'wrong-password')));
    assert.ok(guesses.every((g) => g.status === 401));
    const afterScrape = await scrape(server);
    assert.equal(metricValue(afterScrape, 'portcullis_logins_total', { outcome: 'failure' }) - failuresBefore, THRESHOLD, 'passwords checked');
    assert.equal(metricValue(afterScrape, 'portcullis_logins_total', { outcome: 'locked' }) - lockedBefore, 12 - THRESHOLD, 'refused by the lock');
  });

  test('/metrics counts logins by outcome', async () => {
    const text = await scrape(server);
    assert.ok(metricValue(text, 'portcullis_logins_total', { outcome: 'success' }) >= 4);
    assert.ok(metricValue(text, 'portcullis_logins_total', { outcome: 'failure' }) >= THRESHOLD);
    assert.ok(metricValue(text, 'portcullis_logins_total', { outcome: 'locked' }) >= 2);
  });

  test('a locked answer costs about what a wrong password costs (no timing tell)', async () => {
    const timed = async (email: string, password: string) => {
      const started = performance.now();
      await login(email, password);
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const wrong: number[] = [];
    const locked: number[] = [];
    for (let i = 0; i < 5; i++) {
      // A fresh unknown address per wrong sample keeps those below the threshold.
      wrong.push(await timed(`timing-${i}@example.com`, 'wrong-password'));
      locked.push(await timed('locked@example.com', PASSWORD));
    }
    const ratio = median(locked) / median(wrong);
    console.log(`login timing: wrong password median ${median(wrong).toFixed(1)} ms, locked median ${median(locked).toFixed(1)} ms`);
    // Both run one argon2 verification; a locked answer that skipped it would be several times faster.
    assert.ok(ratio > 0.5, `locked answers are much faster than wrong passwords (ratio ${ratio.toFixed(2)})`);
  });
});
