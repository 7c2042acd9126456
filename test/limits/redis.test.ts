/**
 * --redis-url: the limits' counters live in Redis, so two instances share one budget (login lockout and
 * per-IP limit); when Redis goes away, each instance keeps limiting on its own (the in-memory insurance
 * limiter) instead of failing requests. Uses Redis database 9 on 127.0.0.1:6379, flushed first; the outage
 * test runs a private redis-server it can stop.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { startServer, type TestServer } from '../support/app.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { restClient } from '../support/rest-client.ts';

const SHARED_REDIS = 'redis://127.0.0.1:6379/9';
const PASSWORD = 'Sh4red!pass';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('two instances with one --redis-url', () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    const redis = new Redis(SHARED_REDIS);
    await redis.flushdb();
    redis.disconnect();
    const flags = ['--redis-url', SHARED_REDIS, '--login-lockout-threshold', '3'];
    a = await startServer(flags);
    b = await startServer(flags);
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  test('share one login lockout', async () => {
    // Separate databases, one account name: the lockout key is the address, so the count is shared.
    for (const server of [a, b]) {
      await signedUpUser(server, { email: 'shared@example.com', password: PASSWORD });
    }
    const login = (server: TestServer, password: string) => restClient(server).post('/v1/login', { email: 'shared@example.com', password });
    assert.equal((await login(a, 'wrong')).status, 401);
    assert.equal((await login(b, 'wrong')).status, 401);
    assert.equal((await login(a, 'wrong')).status, 401);
    assert.equal((await login(b, PASSWORD)).status, 401, 'three failures across both instances lock the account on both');
    assert.equal((await login(a, PASSWORD)).status, 401);
  });

  test('keep the counters in Redis', async () => {
    const redis = new Redis(SHARED_REDIS);
    try {
      const one = a.app.deps.limits;
      const two = b.app.deps.limits;
      await one.consume('login_failure', 'ip-probe');
      await two.consume('login_failure', 'ip-probe');
      assert.ok(await redis.exists('portcullis:login_failure:ip-probe'), 'the counter is in Redis');
      assert.equal(await redis.get('portcullis:login_failure:ip-probe'), '2');
    } finally {
      redis.disconnect();
    }
  });
});

describe('per-IP limit shared through Redis', () => {
  test('requests to two instances draw on one budget', async () => {
    const redis = new Redis(SHARED_REDIS);
    await redis.del('portcullis:ip:127.0.0.1', 'portcullis:ip:burst:127.0.0.1');
    redis.disconnect();
    const flags = ['--redis-url', SHARED_REDIS, '--rate-limit-rps', '4', '--rate-limit-burst', '0'];
    const a = await startServer(flags);
    const b = await startServer(flags);
    try {
      const meta = (server: TestServer) => fetch(`${server.baseUrl}/v1/meta`).then((res) => res.status);
      // Eight at once, four to each: alone each instance would allow all four of its own.
      const statuses = await Promise.all([a, b, a, b, a, b, a, b].map(meta));
      assert.equal(statuses.filter((s) => s === 200).length, 4, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 4);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('when Redis goes away', () => {
  let redisServer: ChildProcess;
  let port: number;
  before(async () => {
    port = await freePort();
    redisServer = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const probe = new Redis(port, '127.0.0.1', { retryStrategy: (times) => (times > 50 ? null : 100) });
    probe.on('error', () => undefined); // refused until redis-server listens; retried above
    await probe.ping();
    probe.disconnect();
  });
  after(() => {
    if (redisServer.exitCode === null) redisServer.kill('SIGKILL');
  });

  test('each instance keeps limiting on its own instead of failing requests', async () => {
    const server = await startServer(['--redis-url', `redis://127.0.0.1:${port}/0`, '--login-lockout-threshold', '2']);
    try {
      const api = restClient(server);
      await signedUpUser(server, { email: 'outage@example.com', password: PASSWORD });
      redisServer.kill('SIGKILL');
      await new Promise((resolve) => redisServer.once('exit', resolve));
      const login = (password: string) => api.post('/v1/login', { email: 'outage@example.com', password });
      assert.equal((await login(PASSWORD)).status, 200, 'served without Redis');
      assert.equal((await login('wrong')).status, 401);
      assert.equal((await login('wrong')).status, 401);
      assert.equal((await login(PASSWORD)).status, 401, 'still locked out, by the in-memory insurance limiter');
      assert.equal((await api.get('/v1/meta')).status, 200);
    } finally {
      await server.close();
    }
  });
});
