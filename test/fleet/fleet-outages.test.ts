/**
 * The fleet of test/fleet/fleet.test.ts (three processes of the single executable on one throwaway PostgreSQL
 * and one throwaway Redis, behind HAProxy health-checking /readyz) when what it shares fails
 * (docs/deployment.md, docs/reverse-proxy.md#running-a-fleet):
 *
 * (a) a per-IP limit counts one budget across the fleet: look-ups from one client address spread by round
 *     robin over the three are refused after the same 30 that one instance allows;
 * (b) a logout or revoke_access through one instance is refused by the two others, asked directly, within 100 ms;
 * (c) across a rolling restart under load each password-reset mail goes out exactly once, and a revocation is
 *     refused within 100 ms by an instance that has just restarted and is seen by the others when made through it;
 * (d) a PostgreSQL outage: requests are refused with 503 within a bound (never a 500, never a hang), /readyz
 *     answers 503 on every instance, and every instance serves again on its own once the database is back;
 *     a revocation made then through one is refused by the others. Two more instances (d, e, outside HAProxy,
 *     without --redis-url) broadcast over PostgreSQL LISTEN/NOTIFY: they listen again after the outage;
 * (e) a Redis outage: the instances keep serving with per-instance limits; once Redis is back the limit is one
 *     budget again and revocations reach the others over pub/sub again, without a restart.
 *
 * "Heard over the broadcast" (probes.ts heardBroadcast) means the first request after a revocation was refused
 * while the instance's cached answer was younger than the 100 ms it is trusted without a broadcast.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, SECRETS } from '../sea/executable.ts';
import { startThrowawayPostgres, startThrowawayRedis, type ThrowawayPostgres, type ThrowawayRedis } from '../support/throwaway-services.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { startHaproxy, type Haproxy } from './haproxy.ts';
import { fleetExecutable, fleetMembers, startInstance, stopInstance, type Executable, type FleetMember } from './instances.ts';
import { FGA_MODEL, LOAD_PASSWORD, startLoad, type Outcome } from './load.ts';
import { describeLatencies, heardBroadcast, lastRevokeMs, logIn, orgDiscoveries, postJson, revocationLatencies, signUp, type Latency } from './probes.ts';

/** org_discovery's allowance per client address (modules/limits/policies.ts). */
const DISCOVERY_BUDGET = 30;
const REVOCATION_BOUND_MS = 100;
/** How long a request may take to be refused while the database is down (docs/deployment.md: 2 s pool wait), with room for a loaded machine. */
const OUTAGE_BOUND_MS = 5000;
const LOAD = { workers: 3, pauseMs: 30 };

/** Every first refused request was sent within the bound after the revocation's answer. */
function assertWithinBound(latencies: Latency[]): void {
  assert.ok(latencies.every((latency) => latency.sentMs <= REVOCATION_BOUND_MS), `every refusal within ${REVOCATION_BOUND_MS} ms (sent/answered): ${describeLatencies(latencies)}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeOutcomes(outcomes: Outcome[], since: number): string {
  return outcomes.map((f) => `${f.op} worker ${f.worker} at +${f.startedAt - since}..+${f.endedAt - since} ms: ${f.status} ${f.failure}`).join('\n');
}

describe('a fleet of three behind HAProxy when what it shares fails', () => {
  let pg: ThrowawayPostgres;
  let redis: ThrowawayRedis;
  let smtp: SmtpSink;
  let haproxy: Haproxy;
  let members: FleetMember[];
  let listeners: FleetMember[];
  let copy: Executable;
  let flags: string[];
  let accounts = 0;
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const direct = (member: FleetMember) => `http://127.0.0.1:${member.ports.http}`;
  const adminPost = (baseUrl: string, path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { origin: baseUrl, 'content-type': 'application/json', 'x-service-admin-secret': SECRETS.adminSecret },
      body: JSON.stringify(body),
    });
  const newEmail = (label: string) => `${label}-${++accounts}-${process.pid}@outages.example.com`;

  /** Logs a new account in at `by`, then ends its session there (logout) and times the refusal at the others. */
  async function logoutLatencies(by: FleetMember, at: FleetMember[] = members.filter((member) => member !== by)): Promise<Latency[]> {
    const email = newEmail('logout');
    await signUp(direct(by), email);
    const token = await logIn(direct(by), email);
    const others = at.map(direct);
    return revocationLatencies(others, token, async () => {
      const res = await postJson(direct(by), '/v1/logout', {}, { token });
      assert.equal(res.status, 200, `logout: ${JSON.stringify(res.body)}`);
    });
  }

  /** Logs a new account in through HAProxy, revokes its access through `by`, and times the refusal at every other instance. */
  async function revokeAccessLatencies(by: FleetMember): Promise<Latency[]> {
    const email = newEmail('revoke');
    const userId = await signUp(haproxy.baseUrl, email);
    const token = await logIn(haproxy.baseUrl, email);
    const others = members.filter((member) => member !== by).map(direct);
    return revocationLatencies(others, token, async () => {
      const res = await adminPost(direct(by), '/v1/admin/revoke_access', { user_id: userId });
      assert.equal(res.status, 200, `revoke_access: ${await res.text()}`);
    });
  }

  /**
   * Logouts through `by` until `at` refuses one that only the broadcast can have refused (probes.ts
   * heardBroadcast); answers when, in ms since `since`, and after how many tries.
   */
  async function untilHeard(by: FleetMember, at: FleetMember, since: number, timeoutMs: number): Promise<string> {
    for (let tries = 1; ; tries++) {
      const [latency] = await logoutLatencies(by, [at]);
      if (heardBroadcast(latency!)) return `${Date.now() - since} ms (try ${tries})`;
      assert.ok(Date.now() - since < timeoutMs, `${at.name} hears ${by.name}'s revocations over the broadcast within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  before(async () => {
    copy = fleetExecutable();
    cleanups.push(() => copy.cleanup());
    [pg, redis, smtp] = await Promise.all([startThrowawayPostgres(), startThrowawayRedis(), startSmtpSink()]);
    cleanups.push(() => pg.stop(), () => redis.stop(), () => smtp.close());
    const publicPort = await freePort();
    members = await fleetMembers(['a', 'b', 'c']);
    listeners = await fleetMembers(['d', 'e']);
    flags = [
      ...pg.flags,
      ...smtp.flags(),
      '--redis-url', redis.url,
      '--url', `http://127.0.0.1:${publicPort}`,
      '--trusted-proxies', '127.0.0.1/32',
      // The per-IP request budget stays out of the way of the load; org_discovery's own per-address limit is probed.
      '--rate-limit-rps', '100000',
      '--rate-limit-burst', '100000',
      '--shutdown-drain-delay', '2',
      '--shutdown-timeout', '20',
    ];
    await startInstance(members[0]!, copy, flags);
    // d and e, outside HAProxy, broadcast over PostgreSQL LISTEN/NOTIFY: without --redis-url (state-cache/index.ts).
    const withoutRedis = flags.filter((flag, i) => flag !== '--redis-url' && flags[i - 1] !== '--redis-url');
    await Promise.all([
      ...members.slice(1).map((member) => startInstance(member, copy, flags)),
      ...listeners.map((member) => startInstance(member, copy, withoutRedis)),
    ]);
    cleanups.push(() => Promise.all([...members, ...listeners].map((member) => stopInstance(member))));
    haproxy = await startHaproxy(members.map((member) => ({ name: member.name, port: member.ports.http })), publicPort);
    cleanups.push(() => haproxy.stop());
    await haproxy.waitFor('UP', members.map((member) => member.name));
    const model = await adminPost(haproxy.baseUrl, '/v1/admin/fga/model', { dsl: FGA_MODEL });
    assert.equal(model.status, 200, await model.text());
    const tuples = await adminPost(haproxy.baseUrl, '/v1/admin/fga/tuples', { tuples: [{ user: 'user:*', relation: 'viewer', object: 'document:public' }] });
    assert.equal(tuples.status, 200, await tuples.text());
  });

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('(a) a per-IP limit counts one budget across the three instances', async (t) => {
    const { served, refused } = await orgDiscoveries(haproxy.baseUrl, '127.0.0.2', DISCOVERY_BUDGET + 15);
    t.diagnostic(`org_discovery from one address through HAProxy: ${served} served, ${refused} refused`);
    assert.deepEqual({ served, refused }, { served: DISCOVERY_BUDGET, refused: 15 });
  });

  test('(b) a logout or revoke_access through one instance is refused by the others within 100 ms', async (t) => {
    const measured: Latency[] = [];
    for (const by of members) {
      const logout = await logoutLatencies(by);
      const revoke = await revokeAccessLatencies(by);
      t.diagnostic(`through ${by.name}: logout refused by the others after ${describeLatencies(logout)} ms; revoke_access after ${describeLatencies(revoke)} ms (first refused request sent/answered)`);
      measured.push(...logout, ...revoke);
    }
    assertWithinBound(measured);
  });

  test('(c) a rolling restart sends each outbox mail once; a restarted instance refuses revoked tokens at once', async (t) => {
    const load = startLoad(haproxy.baseUrl, LOAD);
    const requested: string[] = [];
    let mailing = true;
    // Password-reset mails requested through HAProxy the whole time: each acknowledged request is one outbox row.
    const mails = (async () => {
      while (mailing) {
        const email = newEmail('mail');
        await signUp(haproxy.baseUrl, email);
        const res = await postJson(haproxy.baseUrl, '/v1/forgot_password', { email });
        assert.equal(res.status, 200, `forgot_password: ${JSON.stringify(res.body)}`);
        requested.push(email);
        await sleep(100);
      }
    })();
    const latencies: Latency[] = [];
    try {
      await sleep(1000);
      for (const member of members) {
        const signalled = Date.now();
        assert.equal(await stopInstance(member), 0, `${member.name} drains and exits 0`);
        await startInstance(member, copy, flags);
        // Right after its start: a revocation through another instance is refused by it, and one through it by the others.
        const email = newEmail('restart');
        const userId = await signUp(haproxy.baseUrl, email);
        const token = await logIn(direct(member), email);
        const other = members.find((m) => m !== member)!;
        const [atRestarted] = await revocationLatencies([direct(member)], token, async () => {
          const res = await adminPost(direct(other), '/v1/admin/revoke_access', { user_id: userId });
          assert.equal(res.status, 200, await res.text());
        });
        const atRestartedRevokeMs = lastRevokeMs;
        const throughRestarted = await logoutLatencies(member);
        t.diagnostic(`revoke_access took ${atRestartedRevokeMs} ms, logout through the restarted one ${lastRevokeMs} ms`);
        latencies.push(atRestarted!, ...throughRestarted);
        await haproxy.waitFor('UP', [member.name]);
        t.diagnostic(`${member.name} restarted in ${Date.now() - signalled} ms; revocation refused by it after ${describeLatencies([atRestarted!])} ms, its logout by the others after ${describeLatencies(throughRestarted)} ms`);
      }
    } finally {
      mailing = false;
      await mails;
      await load.stop();
    }
    const failures = load.failures();
    assert.deepEqual(describeOutcomes(failures, 0), '', 'no request failed through HAProxy');
    assertWithinBound(latencies);
    for (const email of requested) await smtp.waitFor((message) => message.envelope.to.includes(email), 20_000);
    // Room for a second sending of any of them (the outbox polls about once a second).
    await sleep(3000);
    const sent = new Map<string, number>();
    for (const message of smtp.messages) for (const to of message.envelope.to) sent.set(to, (sent.get(to) ?? 0) + 1);
    t.diagnostic(`${requested.length} password-reset mails requested during the rolling restart, ${load.outcomes.length} load requests`);
    assert.deepEqual(requested.filter((email) => sent.get(email) !== 1).map((email) => `${email}: ${sent.get(email)}`), [], 'each mail sent exactly once');
  });

  test('(d) a PostgreSQL outage is refused with 503 within the bound, and every instance recovers on its own', async (t) => {
    const load = startLoad(haproxy.baseUrl, LOAD);
    let haltedAt = 0;
    let resumedAt = 0;
    let recoveredAt = 0;
    let listenBack: Promise<string> | undefined;
    const [d, e] = listeners as [FleetMember, FleetMember];
    try {
      await sleep(1000);
      t.diagnostic(`before the outage: e heard d's logout over LISTEN/NOTIFY ${await untilHeard(d, e, Date.now(), 5000)} after the first try`);
      haltedAt = Date.now();
      await pg.halt('fast');
      // Every instance refuses at once and says it is not ready.
      for (const member of [...members, ...listeners]) {
        const started = performance.now();
        const ready = await fetch(`${direct(member)}/readyz`);
        assert.equal(ready.status, 503, `${member.name} /readyz during the outage`);
        const signup = await postJson(direct(member), '/v1/signup', { email: newEmail('outage'), password: LOAD_PASSWORD, confirm_password: LOAD_PASSWORD });
        const login = await postJson(direct(member), '/v1/login', { email: newEmail('outage'), password: LOAD_PASSWORD });
        const ms = Math.round(performance.now() - started);
        assert.deepEqual([signup.status, login.status], [503, 503], `${member.name}: ${JSON.stringify([signup.body, login.body])}`);
        assert.ok(ms < OUTAGE_BOUND_MS, `${member.name} refused within ${OUTAGE_BOUND_MS} ms (${ms} ms)`);
        t.diagnostic(`${member.name} during the outage: /readyz 503, signup and login 503 in ${ms} ms together`);
      }
      await sleep(3000);
      await pg.resume();
      resumedAt = Date.now();
      // Each instance is ready again without a restart.
      await Promise.all(
        [...members, ...listeners].map(async (member) => {
          while (!(await fetch(`${direct(member)}/readyz`).then((res) => res.ok, () => false))) {
            assert.ok(Date.now() - resumedAt < 15_000, `${member.name} ready again within 15 s`);
            await sleep(50);
          }
        }),
      );
      recoveredAt = Date.now();
      // From now on, while HAProxy takes the three back: when does e hear d over LISTEN again?
      listenBack = untilHeard(d, e, resumedAt, 15_000);
      listenBack.catch(() => undefined);
      await haproxy.waitFor('UP', members.map((member) => member.name));
      await sleep(1000);
    } finally {
      if (!resumedAt) await pg.resume();
      await load.stop();
    }
    t.diagnostic(`PostgreSQL down ${resumedAt - haltedAt} ms; every instance ready ${recoveredAt - resumedAt} ms after it was back`);
    const outcomes = load.outcomes;
    const slow = outcomes.filter((o) => o.endedAt - o.startedAt >= OUTAGE_BOUND_MS);
    assert.deepEqual(describeOutcomes(slow, haltedAt), '', `no request took ${OUTAGE_BOUND_MS} ms or more`);
    const failures = load.failures();
    const not503 = failures.filter((f) => f.status !== 503);
    assert.deepEqual(describeOutcomes(not503, haltedAt), '', 'every failed request was a 503');
    const afterRecovery = failures.filter((f) => f.startedAt > recoveredAt + 2000);
    assert.deepEqual(describeOutcomes(afterRecovery, haltedAt), '', 'nothing failed once every instance was back in HAProxy');
    t.diagnostic(`load during the outage: ${outcomes.length} requests, ${failures.length} answered 503`);
    // What changed through one instance right after the outage is seen by the others.
    const latencies = [...(await logoutLatencies(members[0]!)), ...(await revokeAccessLatencies(members[1]!))];
    t.diagnostic(`after the outage: revocations refused by the others after ${describeLatencies(latencies)} ms`);
    // LISTEN again: its reconnection backs off up to 5 s (postgres-channel.ts), meanwhile answers are trusted 100 ms.
    t.diagnostic(`LISTEN/NOTIFY delivers again: e heard d's logout ${await listenBack} after PostgreSQL was back`);
    t.diagnostic(`and d heard e's ${await untilHeard(e, d, resumedAt, 15_000)} after`);
    assertWithinBound(latencies);
  });

  test('(e) a Redis outage leaves limits per instance; once Redis is back they are shared and revocations broadcast again', async (t) => {
    const load = startLoad(haproxy.baseUrl, LOAD);
    let perInstance = { served: 0, refused: 0 };
    let haltedAt = 0;
    let resumedAt = 0;
    let pubsubBack: Promise<string> | undefined;
    try {
      await sleep(1000);
      haltedAt = Date.now();
      await redis.halt();
      await sleep(1000);
      perInstance = await orgDiscoveries(haproxy.baseUrl, '127.0.0.3', 3 * DISCOVERY_BUDGET + 15);
      const during = [...(await logoutLatencies(members[2]!)), ...(await revokeAccessLatencies(members[0]!))];
      t.diagnostic(`during the Redis outage: org_discovery ${perInstance.served} served, ${perInstance.refused} refused; revocations refused by the others after ${describeLatencies(during)} ms`);
      await redis.resume();
      resumedAt = Date.now();
      // From now on, under the load: when does b hear a over pub/sub again?
      pubsubBack = untilHeard(members[0]!, members[1]!, resumedAt, 15_000);
      pubsubBack.catch(() => undefined);
      await sleep(500);
    } finally {
      if (!resumedAt) await redis.resume();
      await load.stop();
    }
    assert.deepEqual(describeOutcomes(load.failures(), haltedAt), '', 'no request failed while Redis was down');
    assert.ok(perInstance.served > DISCOVERY_BUDGET && perInstance.served <= 3 * DISCOVERY_BUDGET, `each instance limits on its own (${perInstance.served} served)`);
    // Shared again: one budget for a new address, once the limiters have reconnected (ioredis retries every 2 s at most).
    let shared = { served: 0, refused: 0 };
    for (let address = 4; ; address++) {
      shared = await orgDiscoveries(haproxy.baseUrl, `127.0.0.${address}`, DISCOVERY_BUDGET + 15);
      if (shared.served === DISCOVERY_BUDGET) break;
      assert.ok(Date.now() - resumedAt < 10_000, `one budget again within 10 s of Redis's return (${shared.served} served)`);
    }
    t.diagnostic(`Redis back: one budget again ${Date.now() - resumedAt} ms after its return (${shared.served} served, ${shared.refused} refused)`);
    t.diagnostic(`pub/sub delivers again: b heard a's logout ${await pubsubBack} after Redis was back`);
    for (const [by, at] of [[1, 2], [2, 0]] as const) {
      t.diagnostic(`pub/sub delivers again: ${members[at]!.name} heard ${members[by]!.name}'s logout ${await untilHeard(members[by]!, members[at]!, resumedAt, 15_000)} after Redis was back`);
    }
    const latencies = [...(await logoutLatencies(members[0]!)), ...(await revokeAccessLatencies(members[1]!))];
    t.diagnostic(`after the Redis outage: revocations refused by the others after ${describeLatencies(latencies)} ms`);
    assertWithinBound(latencies);
  });
});
