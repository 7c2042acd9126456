/**
 * Guessing the --admin-secret (OWASP ASVS 2.2.1): wrong secrets, by admin login over REST, GraphQL and gRPC
 * or by the x-service-admin-secret header, are limited per client address and in total, with waits that
 * grow with repeated failures. Once over a limit even the right secret is refused with 429 and Retry-After
 * (REST resource_exhausted, GraphQL TOO_MANY_REQUESTS, gRPC RESOURCE_EXHAUSTED), so the limit is no oracle;
 * every failure is audited with the client IP and never the typed secret; an address that presented the
 * right secret before is not held by the total (an attacker's flood does not lock the administrator out).
 * Addresses come from X-Forwarded-For behind --trusted-proxies; the test clock opens the next windows.
 */
import { describe, test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { status } from '@grpc/grpc-js';
import { Redis } from 'ioredis';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { ADMIN_SECRET_ADDRESS_TIERS, ADMIN_SECRET_TOTAL_TIERS } from '../../server/modules/limits/index.ts';

const WRONG = 'not-the-admin-secret-guess';
const DAY_MS = 24 * 3600 * 1000;
/** Wrong secrets one address may try in a minute, and in a quarter of an hour. */
const PER_MINUTE = ADMIN_SECRET_ADDRESS_TIERS[0]!.points;
const PER_QUARTER = ADMIN_SECRET_ADDRESS_TIERS[1]!.points;
const TOTAL_PER_MINUTE = ADMIN_SECRET_TOTAL_TIERS[0]!.points;

interface Answer {
  status: number;
  body: any;
  retryAfter: string | null;
}

describe('admin secret guessing is limited, with backoff, and audited', () => {
  const clock = new TestClock();
  let server: TestServer;
  let grpc: GrpcTestClient;
  let addressCounter = 0;
  before(async () => {
    server = await startServer(['--trusted-proxies', '127.0.0.1'], { clock });
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });
  // Each test starts at the beginning of a fresh day on the test clock: every window of every tier is new
  // and the test's few seconds of real time stay inside the first minute.
  beforeEach(() => {
    const now = Date.now() + clock.offsetMs;
    clock.offsetMs += Math.ceil(now / DAY_MS) * DAY_MS + 1000 - now;
  });

  /** A documentation address (RFC 5737) of its own for each caller. */
  const freshAddress = () => `198.51.100.${++addressCounter}`;

  async function restLogin(secret: string, address: string): Promise<Answer> {
    const res = await fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, 'x-forwarded-for': address },
      body: JSON.stringify({ admin_secret: secret }),
    });
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
  }

  async function graphqlLogin(secret: string, address: string): Promise<Answer> {
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, 'x-forwarded-for': address },
      body: JSON.stringify({ query: 'mutation($p: AdminLoginRequest!) { _admin_login(params: $p) { message } }', variables: { p: { admin_secret: secret } } }),
    });
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
  }

  async function metaWithHeader(secret: string, address: string, cookie?: string): Promise<Answer> {
    const res = await fetch(`${server.baseUrl}/v1/admin/meta`, {
      headers: { 'x-service-admin-secret': secret, 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
    });
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
  }

  /** The admin.login_failed entries of one address, read with the admin header from the proxy's own address. */
  async function failuresOf(address: string): Promise<Array<{ ip_address: string; actor_type: string; metadata: Record<string, unknown>; raw: string }>> {
    const body = await adminClient(server).ok('audit_logs', { action: 'admin.login_failed', pagination: { limit: 100 } });
    return body.audit_logs
      .filter((entry: { ip_address: string }) => entry.ip_address === address)
      .map((entry: { ip_address: string; actor_type: string; metadata: string }) => ({ ...entry, metadata: JSON.parse(entry.metadata), raw: JSON.stringify(entry) }));
  }

  function assertRefusedFor(answer: Answer, maxSeconds: number): void {
    assert.equal(answer.status, 429, JSON.stringify(answer.body));
    const seconds = Number(answer.retryAfter);
    assert.ok(seconds >= 1 && seconds <= maxSeconds, `Retry-After ${answer.retryAfter} within ${maxSeconds} s`);
  }

  test('REST: a minute of wrong secrets, then even the right one gets 429 resource_exhausted until the minute ends', async () => {
    const address = freshAddress();
    for (let i = 0; i < PER_MINUTE; i++) {
      const wrong = await restLogin(WRONG, address);
      assert.deepEqual([wrong.status, wrong.body.code], [401, 'unauthenticated']);
    }
    const held = await restLogin(ADMIN_SECRET, address);
    assertRefusedFor(held, 60);
    assert.deepEqual(held.body, { code: 'resource_exhausted', message: 'too many failed admin sign-ins: try again later' });
    // Another address is not held by this one's failures.
    assert.equal((await restLogin(ADMIN_SECRET, freshAddress())).status, 200);

    const entries = await failuresOf(address);
    assert.equal(entries.length, PER_MINUTE + 1, 'every wrong secret and the refusal');
    assert.deepEqual(entries.map((e) => e.metadata.reason).sort(), ['rate_limited', ...Array(PER_MINUTE).fill('wrong_secret')]);
    for (const entry of entries) {
      assert.equal(entry.actor_type, 'anonymous');
      assert.equal(entry.metadata.via, 'login');
      assert.ok(!entry.raw.includes(WRONG) && !entry.raw.includes(ADMIN_SECRET), 'no typed secret in the audit log');
    }

    clock.advance(60);
    const after = await restLogin(ADMIN_SECRET, address);
    assert.equal(after.status, 200, JSON.stringify(after.body));
  });

  test('GraphQL _admin_login: TOO_MANY_REQUESTS with extensions.retryAfter for the right secret once held', async () => {
    const address = freshAddress();
    for (let i = 0; i < PER_MINUTE; i++) {
      const wrong = await graphqlLogin(WRONG, address);
      assert.equal(wrong.body.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
    }
    const held = await graphqlLogin(ADMIN_SECRET, address);
    const error = held.body.errors?.[0];
    assert.equal(error?.extensions?.code, 'TOO_MANY_REQUESTS', JSON.stringify(held.body));
    assert.ok(error.extensions.retryAfter >= 1 && error.extensions.retryAfter <= 60);
    assert.equal((await failuresOf(address)).length, PER_MINUTE + 1);
    clock.advance(60);
    assert.deepEqual((await graphqlLogin(ADMIN_SECRET, address)).body, { data: { _admin_login: { message: 'admin logged in successfully' } } });
  });

  test('gRPC admin login: RESOURCE_EXHAUSTED with retry-after for the right secret once held', async () => {
    const address = freshAddress();
    const login = (secret: string) => grpc.call('AdminService', 'AdminLogin', { admin_secret: secret }, { 'x-forwarded-for': address });
    for (let i = 0; i < PER_MINUTE; i++) assert.equal((await refusal(login(WRONG))).code, status.UNAUTHENTICATED);
    const held = await refusal(login(ADMIN_SECRET));
    assert.equal(held.code, status.RESOURCE_EXHAUSTED);
    assert.equal(held.details, 'too many failed admin sign-ins: try again later');
    const seconds = Number(held.trailers.get('retry-after')[0]);
    assert.ok(seconds >= 1 && seconds <= 60);
    assert.equal((await failuresOf(address)).length, PER_MINUTE + 1);
    clock.advance(60);
    assert.equal((await login(ADMIN_SECRET)).response.message, 'admin logged in successfully');
  });

  test('the x-service-admin-secret header is the same guess: limited and audited; a live cookie still works', async () => {
    const address = freshAddress();
    const login = await fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, 'x-forwarded-for': address },
      body: JSON.stringify({ admin_secret: ADMIN_SECRET }),
    });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('service-admin='))!.split(';')[0]!;
    for (let i = 0; i < PER_MINUTE; i++) assert.equal((await metaWithHeader(WRONG, address)).status, 401);
    assertRefusedFor(await metaWithHeader(ADMIN_SECRET, address), 60);
    // Login and header share the budget.
    assert.equal((await restLogin(ADMIN_SECRET, address)).status, 429);
    // A session opened before is no guess: it keeps working.
    assert.equal((await metaWithHeader(WRONG, address, cookie)).status, 200);
    const entries = await failuresOf(address);
    assert.ok(entries.length >= PER_MINUTE + 2);
    assert.ok(entries.some((e) => e.metadata.via === 'header' && e.metadata.reason === 'wrong_secret'));
    assert.ok(entries.every((e) => !e.raw.includes(WRONG) && !e.raw.includes(ADMIN_SECRET)));
    clock.advance(60);
    assert.equal((await metaWithHeader(ADMIN_SECRET, address)).status, 200);
  });

  test('repeated failures make the wait grow: once the quarter-hour allowance is spent, the next minute does not open', async () => {
    const address = freshAddress();
    for (let i = 0; i < PER_MINUTE; i++) assert.equal((await restLogin(WRONG, address)).status, 401);
    clock.advance(60);
    for (let i = PER_MINUTE; i < PER_QUARTER; i++) assert.equal((await restLogin(WRONG, address)).status, 401);
    assertRefusedFor(await restLogin(ADMIN_SECRET, address), 15 * 60);
    clock.advance(60);
    const stillHeld = await restLogin(ADMIN_SECRET, address);
    assert.equal(stillHeld.status, 429);
    assert.ok(Number(stillHeld.retryAfter) > 60, `the second wait is longer than the first (Retry-After ${stillHeld.retryAfter})`);
    clock.advance(15 * 60);
    assert.equal((await restLogin(ADMIN_SECRET, address)).status, 200);
  });

  test('failures spread over many addresses meet the total; an address that signed in before is not held by it', async () => {
    const administrator = freshAddress();
    assert.equal((await restLogin(ADMIN_SECRET, administrator)).status, 200);
    // A botnet: many addresses, one wrong guess each.
    for (let i = 0; i < TOTAL_PER_MINUTE; i++) assert.equal((await restLogin(WRONG, freshAddress())).status, 401);
    const newcomer = freshAddress();
    assertRefusedFor(await restLogin(ADMIN_SECRET, newcomer), 60);
    assert.equal((await metaWithHeader(ADMIN_SECRET, freshAddress())).status, 429, 'the header meets the same total');
    // The administrator's address keeps its own allowance through the flood.
    assert.equal((await restLogin(ADMIN_SECRET, administrator)).status, 200);
    assert.equal((await metaWithHeader(ADMIN_SECRET, administrator)).status, 200);
    clock.advance(60);
    assert.equal((await restLogin(ADMIN_SECRET, newcomer)).status, 200);
  });

  test('right secrets are not counted: many logins and header calls in a row all succeed', async () => {
    const address = freshAddress();
    for (let i = 0; i < 30; i++) {
      assert.equal((await restLogin(ADMIN_SECRET, address)).status, 200, `login ${i}`);
      assert.equal((await metaWithHeader(ADMIN_SECRET, address)).status, 200, `header ${i}`);
    }
    assert.equal((await failuresOf(address)).length, 0);
  });

  test('right secrets at the same instant are not counted either: 30 header calls in parallel and 20 aliased admin fields pass', async () => {
    const address = freshAddress();
    const parallel = await Promise.all(Array.from({ length: 30 }, () => metaWithHeader(ADMIN_SECRET, address)));
    assert.deepEqual(parallel.map((answer) => answer.status), Array(30).fill(200));
    const fields = Array.from({ length: 20 }, (_, i) => `m${i}: _admin_meta { version }`).join(' ');
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, 'x-forwarded-for': address, 'x-service-admin-secret': ADMIN_SECRET },
      body: JSON.stringify({ query: `query { ${fields} }` }),
    });
    const body = (await res.json()) as { errors?: unknown[] };
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  });
});

describe('two instances with one --redis-url share the admin secret budget', () => {
  const clock = new TestClock();
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    // A database of its own: redis.test.ts flushes database 9 while it runs.
    const url = 'redis://127.0.0.1:6379/11';
    const redis = new Redis(url);
    await redis.flushdb();
    redis.disconnect();
    const now = Date.now();
    clock.offsetMs = Math.ceil(now / DAY_MS) * DAY_MS + 1000 - now;
    a = await startServer(['--redis-url', url, '--trusted-proxies', '127.0.0.1'], { clock });
    b = await startServer(['--redis-url', url, '--trusted-proxies', '127.0.0.1'], { clock });
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  const login = async (on: TestServer, secret: string) =>
    (await fetch(`${on.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: on.baseUrl, 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ admin_secret: secret }),
    })).status;

  test('failures on either instance count once; right secrets give their point back', async () => {
    for (let i = 0; i < 10; i++) assert.equal(await login(i % 2 ? a : b, ADMIN_SECRET), 200, 'right secrets are refunded');
    for (let i = 0; i < PER_MINUTE; i++) assert.equal(await login(i % 2 ? a : b, WRONG), 401);
    assert.equal(await login(a, ADMIN_SECRET), 429);
    assert.equal(await login(b, ADMIN_SECRET), 429);
    clock.advance(60);
    assert.equal(await login(b, ADMIN_SECRET), 200);
  });
});
