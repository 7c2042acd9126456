/** Health, readiness and metrics (docs/api-overview.md#http-endpoints-outside-v1, docs/errors.md); client IP per --trusted-proxies. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, baseFlags, type TestServer } from '../support/app.ts';
import { buildApp } from '../../server/app.ts';
import { parseConfig } from '../../server/config/parse.ts';
import { buildHttpContext } from '../../server/transports/http/request-context.ts';

describe('health and metrics', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('/healthz, /health and /readyz answer 200 while the database answers', async () => {
    for (const [path, status] of [['/healthz', 'ok'], ['/health', 'ok'], ['/readyz', 'ready']] as const) {
      const res = await fetch(server.baseUrl + path);
      assert.equal(res.status, 200, path);
      assert.deepEqual(await res.json(), { status });
    }
  });

  test('/metrics is served on the metrics listener only, with request counts by route and status', async () => {
    await fetch(`${server.baseUrl}/v1/meta`);
    const main = await fetch(`${server.baseUrl}/metrics`);
    assert.equal(main.status, 404);
    const res = await fetch(`http://127.0.0.1:${server.ports.metrics}/metrics`);
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.match(text, /process_cpu_user_seconds_total/);
    assert.match(text, /portcullis_http_requests_total\{route="\/v1\/meta",method="GET",status="200"\} \d+/);
    assert.match(text, /portcullis_http_request_duration_seconds_bucket/);
  });
});

describe('health when the database is gone', () => {
  test('/healthz answers 503 unhealthy and /readyz 503 not ready', async () => {
    const server = await startServer();
    try {
      await server.app.deps.storage.close();
      const health = await fetch(`${server.baseUrl}/healthz`);
      assert.equal(health.status, 503);
      assert.deepEqual(await health.json(), { status: 'unhealthy' });
      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 503);
      assert.deepEqual(await ready.json(), { status: 'not ready' });
    } finally {
      await server.app.http.close();
      await server.app.metricsHttp.close();
      server.app.grpc?.forceShutdown();
    }
  });
});

describe('client IP and --trusted-proxies', () => {
  async function ipSeen(extra: string[], remoteAddress: string, forwardedFor: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-ip-'));
    const app = await buildApp(parseConfig([...baseFlags(dir), ...extra]));
    try {
      // The context builder is what every operation sees; read the IP it derives.
      app.http.get('/__ip', async (request) => ({ ip: buildHttpContext(app.deps, request, 'rest').req.ip }));
      const res = await app.http.inject({ url: '/__ip', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });
      return (res.json() as { ip: string }).ip;
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  test('X-Forwarded-For is ignored by default', async () => {
    assert.equal(await ipSeen([], '10.1.2.3', '203.0.113.9'), '10.1.2.3');
  });

  test('X-Forwarded-For is honoured only from a trusted proxy', async () => {
    assert.equal(await ipSeen(['--trusted-proxies', '10.0.0.0/8'], '10.1.2.3', '203.0.113.9'), '203.0.113.9');
    assert.equal(await ipSeen(['--trusted-proxies', '192.168.0.0/16'], '10.1.2.3', '203.0.113.9'), '10.1.2.3');
  });
});
