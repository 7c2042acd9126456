/**
 * Graceful drain on SIGTERM (docs/reverse-proxy.md#running-a-fleet), with real server processes: /readyz answers
 * 503 for --shutdown-drain-delay while every other route is still served (each answer closing its keep-alive
 * connection); an HTTP request and a gRPC call in flight when the listeners close finish; a webhook delivery in
 * flight is delivered once and recorded, not sent again by the next instance; the process exits 0. A
 * --shutdown-timeout that running work outlasts, or a second signal, exits at once.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, stopServer, adminCall, SECRETS, type ServerProcess } from '../support/server-process.ts';
import { createGrpcClient } from '../support/grpc-client.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { ALLOW_PRIVATE, PASSWORD } from '../webhooks/support.ts';
import { freePorts, serverFlags } from '../sea/executable.ts';
import { parseConfig } from '../../server/config/parse.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A keep-alive GET over a fresh connection, answering the status and the Connection header of the answer. */
function get(server: ServerProcess, path: string): Promise<{ status: number; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.baseUrl}${path}`, { agent: false, headers: { connection: 'keep-alive' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with how long the process took to exit after `since`. */
async function exitIn(server: ServerProcess, since: number): Promise<{ code: number | string | null; ms: number }> {
  const code = await server.exited;
  return { code, ms: Date.now() - since };
}

describe('graceful drain', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-drain-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  test('during the drain delay /readyz answers 503 while other routes answer 200 with Connection: close; exit 0', async () => {
    const server = await spawnServer(tempDir(), ['--shutdown-drain-delay', '2']);
    cleanups.push(() => stopServer(server));
    assert.equal((await get(server, '/readyz')).status, 200);
    const before = await get(server, '/.well-known/openid-configuration');
    assert.equal(before.status, 200);
    assert.notEqual(before.connection, 'close', 'keep-alive is left alone before the drain');

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await sleep(300);
    const ready = await get(server, '/readyz');
    assert.equal(ready.status, 503, '/readyz fails at once so that load balancers take the instance out');
    assert.equal(ready.connection, 'close');
    for (const path of ['/healthz', '/.well-known/openid-configuration', '/.well-known/jwks.json']) {
      const answer = await get(server, path);
      assert.equal(answer.status, 200, `${path} is still served during the drain delay`);
      assert.equal(answer.connection, 'close', `${path} closes its connection during the drain`);
    }
    // A sign-up (a write) is served too.
    await signedUpUser(server, { email: 'draining@example.com', password: PASSWORD });
    assert.equal(server.child.exitCode, null, 'still running inside the drain delay');

    const { code, ms } = await exitIn(server, signalled);
    assert.equal(code, 0);
    assert.ok(ms >= 2000, `the listeners stayed open for the drain delay (exited after ${ms} ms)`);
    assert.ok(ms < 8000, `exited soon after the drain delay (${ms} ms)`);
  });

  test('an HTTP request and a gRPC call in flight when the listeners close finish; exit 0', async () => {
    const receiver = await startReceiver(async () => {
      await sleep(1500);
      return { status: 200, body: 'slow but fine' };
    });
    cleanups.push(() => receiver.close());
    const server = await spawnServer(tempDir(), [...ALLOW_PRIVATE, '--shutdown-drain-delay', '0']);
    cleanups.push(() => stopServer(server));
    const grpc = createGrpcClient(server.ports.grpc);
    cleanups.push(() => grpc.close());

    // test_endpoint answers only once the receiver has (docs/operations.md#test_endpoint): a slow request.
    const overHttp = adminCall(server, 'test_endpoint', { endpoint: receiver.url, event_name: 'user.login' });
    const overGrpc = grpc.call('AdminService', 'TestEndpoint', { endpoint: receiver.url, event_name: 'user.login' }, { 'x-service-admin-secret': SECRETS.adminSecret });
    await receiver.waitFor(2, 10_000);
    const signalled = Date.now();
    server.child.kill('SIGTERM');

    const [http, rpc] = await Promise.all([overHttp, overGrpc]);
    assert.equal(http.http_status, 200);
    assert.equal(rpc.response.http_status, 200);
    const { code, ms } = await exitIn(server, signalled);
    assert.equal(code, 0);
    assert.ok(ms < 8000, `exited once the calls finished (${ms} ms)`);
    await assert.rejects(get(server, '/healthz'), 'no new connection is accepted after exit');
  });

  test('a webhook delivery in flight at SIGTERM is delivered once and recorded; the next instance does not send it again', async () => {
    const dir = tempDir();
    const receiver = await startReceiver(async () => {
      await sleep(1500);
      return { status: 200, body: 'ok' };
    });
    cleanups.push(() => receiver.close());
    const first = await spawnServer(dir, [...ALLOW_PRIVATE, '--shutdown-drain-delay', '0']);
    cleanups.push(() => stopServer(first));
    await adminCall(first, 'add_webhook', { event_name: 'user.access_revoked', endpoint: receiver.url, enabled: true });
    const user = await signedUpUser(first, { email: 'in-flight@example.com', password: PASSWORD });
    await adminCall(first, 'revoke_access', { user_id: user.userId });
    await receiver.waitFor(1, 10_000);
    const signalled = Date.now();
    first.child.kill('SIGTERM');
    const { code, ms } = await exitIn(first, signalled);
    assert.equal(code, 0);
    assert.ok(ms >= 1000, `the delivery was waited for, not cut short (exited after ${ms} ms)`);

    // The next instance on the same database starts by looking for due deliveries (and polls every 5 s).
    const second = await spawnServer(dir, ALLOW_PRIVATE);
    cleanups.push(() => stopServer(second));
    await sleep(2500);
    assert.equal(receiver.received.length, 1, 'sent once, not again by the next instance');
    const logs = await adminCall(second, 'webhook_logs', { pagination: { limit: 10 } });
    assert.equal(logs.webhook_logs.length, 1, 'the attempt is recorded');
    assert.equal(logs.webhook_logs[0].http_status, 200);
  });

  test('--shutdown-timeout exits at once with 1 when running work outlasts it, and so does a second signal', async () => {
    const receiver = await startReceiver(async () => {
      await sleep(8000);
      return { status: 200 };
    });
    cleanups.push(() => receiver.close());
    const timed = await spawnServer(tempDir(), [...ALLOW_PRIVATE, '--shutdown-drain-delay', '0', '--shutdown-timeout', '1']);
    cleanups.push(() => stopServer(timed));
    void adminCall(timed, 'test_endpoint', { endpoint: receiver.url, event_name: 'user.login' }).catch(() => undefined);
    await receiver.waitFor(1, 10_000);
    let signalled = Date.now();
    timed.child.kill('SIGTERM');
    let exit = await exitIn(timed, signalled);
    assert.equal(exit.code, 1);
    assert.ok(exit.ms >= 900 && exit.ms < 4000, `exited at the timeout (${exit.ms} ms)`);

    const twice = await spawnServer(tempDir(), [...ALLOW_PRIVATE, '--shutdown-drain-delay', '0']);
    cleanups.push(() => stopServer(twice));
    void adminCall(twice, 'test_endpoint', { endpoint: receiver.url, event_name: 'user.login' }).catch(() => undefined);
    await receiver.waitFor(2, 10_000);
    signalled = Date.now();
    twice.child.kill('SIGTERM');
    await sleep(200);
    assert.equal(twice.child.exitCode, null, 'the first signal waits for the running request');
    twice.child.kill('SIGINT');
    exit = await exitIn(twice, signalled);
    assert.equal(exit.code, 1);
    assert.ok(exit.ms < 3000, `the second signal exits at once (${exit.ms} ms)`);
  });

  test('the drain flags default to 5 and 25 seconds; a timeout not longer than the drain delay is refused at start', async () => {
    // The test servers' flags without the drain delay they set to 0.
    const flags = serverFlags(tempDir(), await freePorts()).filter((_, i, all) => all[i] !== '--shutdown-drain-delay' && all[i - 1] !== '--shutdown-drain-delay');
    const config = parseConfig(flags);
    assert.deepEqual([config.shutdownDrainDelay, config.shutdownTimeout], [5, 25]);
    assert.throws(() => parseConfig([...flags, '--shutdown-drain-delay', '30']), /--shutdown-timeout must be greater than --shutdown-drain-delay/);
    assert.throws(() => parseConfig([...flags, '--shutdown-timeout', '-1']), /--shutdown-timeout takes a whole number/);
  });
});
