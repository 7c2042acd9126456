/**
 * The sweep of a user's dead rows at login runs at most once per user every SWEEP_INTERVAL_MS
 * (tokens/sweep-schedule.ts): a login soon after another skips it, a later one sweeps, and a skipped sweep
 * never lets an expired token or session through.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { TestClock } from '../support/test-clock.ts';
import { createUser, handlerContext, login } from './support.ts';
import { SWEEP_INTERVAL_MS, SweepSchedule, sweepScheduleOf } from '../../server/modules/tokens/sweep-schedule.ts';
import { TokenRecord, validateToken } from '../../server/modules/tokens/index.ts';

describe('SweepSchedule', () => {
  test('due the first time, not again within the interval, due again after it', () => {
    const schedule = new SweepSchedule(1000);
    const t = (ms: number) => new Date(1_700_000_000_000 + ms);
    assert.equal(schedule.due('u1', t(0)), true);
    assert.equal(schedule.due('u1', t(999)), false);
    assert.equal(schedule.due('u2', t(999)), true, 'each user has its own schedule');
    assert.equal(schedule.due('u1', t(1000)), true);
    assert.equal(schedule.due('u1', t(1500)), false);
    assert.equal(schedule.due('u1', t(500)), true, 'a clock that went back counts as due');
  });

  test('remembers a bounded number of users, forgetting the least recently swept', () => {
    const schedule = new SweepSchedule(60_000, 2);
    const now = new Date(1_700_000_000_000);
    schedule.due('a', now);
    schedule.due('b', now);
    schedule.due('c', now);
    assert.equal(schedule.size, 2);
    assert.equal(schedule.due('a', now), true, 'a was forgotten, so it is swept');
    assert.equal(schedule.due('c', now), false, 'c is still remembered');
  });

  test('one schedule per database (Storage object)', () => {
    const a = {};
    const b = {};
    assert.equal(sweepScheduleOf(a), sweepScheduleOf(a));
    assert.notEqual(sweepScheduleOf(a), sweepScheduleOf(b));
  });
});

describe('logins and the sweep', () => {
  let server: TestServer;
  const clock = new TestClock();
  before(async () => {
    server = await startServer([], { clock });
  });
  after(async () => {
    clock.offsetMs = 0;
    await server?.close();
  });

  const records = (userId: string) => server.app.deps.storage.fork().count(TokenRecord, { userId });

  test('a login within the interval keeps dead rows (still refused); a later login sweeps them', async () => {
    const user = await createUser(server.app);
    const first = await login(server.app, user);
    assert.equal(await records(user.id), 2);
    clock.advance(31 * 60 - SWEEP_INTERVAL_MS / 1000 + 1);
    await login(server.app, user);
    clock.advance(SWEEP_INTERVAL_MS / 1000 - 2);
    // 31 min after the first login its access token has expired; the second login was too recent to sweep.
    await assert.rejects(validateToken(handlerContext(server.app, server.app.deps.storage.fork()), first.tokens.access_token, 'access_token'), {
      message: 'token has expired',
    });
    await login(server.app, user);
    assert.equal(await records(user.id), 6, 'no sweep within the interval: the expired records stay');
    clock.advance(2);
    await login(server.app, user);
    assert.equal(await records(user.id), 6, 'the sweep removed the first login\'s 2 expired records');
  });
});
