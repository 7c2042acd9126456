/**
 * A fleet of three processes of the single executable (dist/portcullis) on one throwaway PostgreSQL and one
 * throwaway Redis, behind HAProxy health-checking /readyz (docs/reverse-proxy.md#running-a-fleet), under bounded
 * mixed load the whole time:
 *
 * (a) a rolling restart of all three (SIGTERM, drain, start again) fails no request seen through HAProxy,
 *     loses no acknowledged write, and sends no webhook delivery twice;
 * (b) a SIGKILL of one fails only requests that were in flight when it died, loses no acknowledged write,
 *     and the webhook deliveries it was sending are sent again by the others after their lease, with the same
 *     delivery id; every signed-up account's user.signup event is delivered.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, SECRETS } from '../sea/executable.ts';
import { startThrowawayPostgres, startThrowawayRedis, type ThrowawayPostgres, type ThrowawayRedis } from '../support/throwaway-services.ts';
import { startHaproxy, HEALTH_CHECK_FALL, HEALTH_CHECK_INTERVAL_MS, type Haproxy } from './haproxy.ts';
import { fleetExecutable, fleetMembers, startInstance, stopInstance, type Executable, type FleetMember } from './instances.ts';
import { FGA_MODEL, LOAD_PASSWORD, missingWrites, startLoad, type Acknowledged, type Outcome } from './load.ts';
import { startWebhookSink, type WebhookSink } from './webhook-sink.ts';

const DRAIN_DELAY_SECONDS = 2;
/** What a webhook delivery's lease lasts (modules/webhooks/worker.ts DEFAULT_WEBHOOK_OPTIONS.leaseMs) plus the 5 s poll. */
const LEASE_AND_POLL_MS = 65_000;
const SINK_DELAY_MS = 2000;
const LOAD = { workers: 4, pauseMs: 20 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeFailures(failures: Outcome[], since: number): string {
  return failures.map((f) => `${f.op} worker ${f.worker} at +${f.startedAt - since}..+${f.endedAt - since} ms: ${f.status} ${f.failure}`).join('\n');
}

describe('a fleet of three behind HAProxy', () => {
  let pg: ThrowawayPostgres;
  let redis: ThrowawayRedis;
  let sink: WebhookSink;
  let haproxy: Haproxy;
  let members: FleetMember[];
  let copy: Executable;
  let flags: string[];
  const acknowledged: Acknowledged[] = [];
  const cleanups: (() => Promise<unknown> | unknown)[] = [];

  async function admin(name: string, path: string, body: unknown): Promise<void> {
    const res = await fetch(`${haproxy.baseUrl}${path}`, {
      method: 'POST',
      headers: { origin: haproxy.baseUrl, 'content-type': 'application/json', 'x-service-admin-secret': SECRETS.adminSecret },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200, `${name}: ${await res.text()}`);
  }

  before(async () => {
    copy = fleetExecutable();
    cleanups.push(() => copy.cleanup());
    [pg, redis, sink] = await Promise.all([startThrowawayPostgres(), startThrowawayRedis(), startWebhookSink(SINK_DELAY_MS)]);
    cleanups.push(() => pg.stop(), () => redis.stop(), () => sink.close());
    const publicPort = await freePort();
    members = await fleetMembers(['a', 'b', 'c']);
    flags = [
      ...pg.flags,
      '--redis-url', redis.url,
      '--url', `http://127.0.0.1:${publicPort}`,
      '--trusted-proxies', '127.0.0.1/32',
      // Limits are counted in Redis across the fleet, high enough that the load never meets them.
      '--rate-limit-rps', '100000',
      '--rate-limit-burst', '100000',
      '--shutdown-drain-delay', String(DRAIN_DELAY_SECONDS),
      '--shutdown-timeout', '20',
      '--webhook-allow-private-addresses=true',
    ];
    // The first instance creates the schema; the others start on it together.
    await startInstance(members[0]!, copy, flags);
    await Promise.all(members.slice(1).map((member) => startInstance(member, copy, flags)));
    cleanups.push(() => Promise.all(members.map((member) => stopInstance(member))));
    haproxy = await startHaproxy(members.map((member) => ({ name: member.name, port: member.ports.http })), publicPort);
    cleanups.push(() => haproxy.stop());
    await haproxy.waitFor('UP', members.map((member) => member.name));
    await admin('fga_write_model', '/v1/admin/fga/model', { dsl: FGA_MODEL });
    await admin('fga_write_tuples', '/v1/admin/fga/tuples', { tuples: [{ user: 'user:*', relation: 'viewer', object: 'document:public' }] });
    await admin('add_webhook', '/v1/admin/add_webhook', { event_name: 'user.signup', endpoint: sink.url, enabled: true });
  });

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('(a) a rolling restart under load fails no request and loses no acknowledged write', async (t) => {
    assert.ok(DRAIN_DELAY_SECONDS * 1000 > HEALTH_CHECK_INTERVAL_MS * HEALTH_CHECK_FALL, 'the drain delay outlasts inter x fall');
    const started = Date.now();
    const load = startLoad(haproxy.baseUrl, LOAD);
    acknowledged.push(load.acknowledged);
    try {
      await sleep(2000);
      for (const member of members) {
        const signalled = Date.now();
        assert.equal(await stopInstance(member), 0, `${member.name} drains and exits 0`);
        const drained = Date.now() - signalled;
        await startInstance(member, copy, flags);
        await haproxy.waitFor('UP', [member.name]);
        t.diagnostic(`${member.name}: drained in ${drained} ms, back in HAProxy ${Date.now() - signalled} ms after SIGTERM`);
      }
      await sleep(1000);
    } finally {
      await load.stop();
    }
    const failures = load.failures();
    t.diagnostic(`rolling restart: ${load.outcomes.length} requests in ${Date.now() - started} ms, ${failures.length} failed`);
    assert.ok(load.outcomes.length > 200, `the load kept going (${load.outcomes.length} requests)`);
    assert.deepEqual(describeFailures(failures, started), '', 'no request failed through HAProxy');
    assert.deepEqual(await missingWrites(haproxy.baseUrl, SECRETS.adminSecret, load.acknowledged), []);
    // Deliveries in flight at each SIGTERM were finished and recorded, so none was sent twice.
    const seen = new Map<string, number>();
    for (const arrival of sink.arrivals) seen.set(arrival.deliveryId, (seen.get(arrival.deliveryId) ?? 0) + 1);
    assert.deepEqual([...seen].filter(([, count]) => count > 1), [], 'no webhook delivery sent twice');
    assert.ok(sink.arrivals.length > 0, 'sign-ups were delivered to the webhook');
  });

  test('(b) a SIGKILL under load fails only requests in flight on it; its webhook deliveries are taken over after the lease', async (t) => {
    const victim = members[1]!;
    const load = startLoad(haproxy.baseUrl, LOAD);
    acknowledged.push(load.acknowledged);
    /** From the signal to the moment the process was reaped: requests sent in between reached it. */
    let killedAt = 0;
    let deadAt = 0;
    let inFlightOnVictim: string[] = [];
    try {
      await sleep(1500);
      // A burst of sign-ups spread round-robin over the three: each instance sends the events it commits, so the
      // victim soon has deliveries in flight (the sink holds every answer for SINK_DELAY_MS). It is killed
      // while one of them has waited at most half of that.
      await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          fetch(`${haproxy.baseUrl}/v1/signup`, {
            method: 'POST',
            headers: { origin: haproxy.baseUrl, 'content-type': 'application/json' },
            body: JSON.stringify({ email: `burst-${i}@fleet.example.com`, password: LOAD_PASSWORD, confirm_password: LOAD_PASSWORD }),
          }).then(async (res) => {
            const body = (await res.json()) as { user: { id: string } };
            assert.equal(res.status, 200, JSON.stringify(body));
            load.acknowledged.signups.set(`burst-${i}@fleet.example.com`, body.user.id);
          }),
        ),
      );
      const pid = victim.current!.child.pid!;
      const deadline = Date.now() + 20_000;
      while (sink.waitingFrom(pid).filter((arrival) => Date.now() - arrival.at < SINK_DELAY_MS / 2).length === 0) {
        assert.ok(Date.now() < deadline, 'the victim sent a webhook delivery within 20 s');
        await sleep(10);
      }
      inFlightOnVictim = sink.waitingFrom(pid).map((arrival) => arrival.deliveryId);
      killedAt = Date.now();
      victim.current!.child.kill('SIGKILL');
      assert.equal(await victim.current!.exited, 'SIGKILL');
      deadAt = Date.now();
      await haproxy.waitFor('DOWN', [victim.name]);
      await sleep(3000);
    } finally {
      await load.stop();
    }
    const failures = load.failures();
    t.diagnostic(`SIGKILL: ${load.outcomes.length} requests, ${failures.length} failed\n${describeFailures(failures, killedAt)}`);
    const notInFlight = failures.filter((f) => f.startedAt > deadAt || f.endedAt < killedAt);
    assert.deepEqual(describeFailures(notInFlight, killedAt), '', 'only requests in flight at the kill failed');
    assert.ok(failures.length <= LOAD.workers, 'at most one request per load worker was in flight on the killed instance');
    assert.deepEqual(await missingWrites(haproxy.baseUrl, SECRETS.adminSecret, load.acknowledged), []);

    await sleep(SINK_DELAY_MS);
    const cut = sink.cutShort();
    t.diagnostic(`webhook deliveries in flight on the killed instance: ${inFlightOnVictim.length}; cut short: ${cut.size}`);
    assert.ok(inFlightOnVictim.length > 0);
    for (const id of inFlightOnVictim) assert.ok(cut.has(id), `delivery ${id} was cut short by the kill`);
    const deadline = killedAt + LEASE_AND_POLL_MS + 15_000;
    const signedUp = new Set(acknowledged.flatMap((ack) => [...ack.signups.values()]));
    for (;;) {
      const answered = sink.answeredIds();
      const deliveredUsers = new Set(sink.arrivals.filter((a) => a.answered).map((a) => a.userId));
      const waiting = [...cut].filter((id) => !answered.has(id));
      const undelivered = [...signedUp].filter((id) => !deliveredUsers.has(id));
      if (waiting.length === 0 && undelivered.length === 0) break;
      assert.ok(Date.now() < deadline, `after the lease: ${waiting.length} cut deliveries not sent again, ${undelivered.length} sign-ups never delivered`);
      await sleep(250);
    }
    t.diagnostic(`the cut deliveries were sent again with the same ids ${Date.now() - killedAt} ms after the kill`);
  });
});
