/**
 * Per-IP rate limit on every HTTP route and gRPC method (docs/configuration.md): `--rate-limit-rps`
 * sustained plus `--rate-limit-burst`, answered with 429 + Retry-After (REST `resource_exhausted`, GraphQL
 * TOO_MANY_REQUESTS with extensions.retryAfter) and gRPC RESOURCE_EXHAUSTED with `retry-after` trailing
 * metadata. The client IP is the connection address unless the peer is in --trusted-proxies, over HTTP
 * and gRPC alike, so a spoofed X-Forwarded-For changes nothing by default.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Metadata, status, type ServerUnaryCall } from '@grpc/grpc-js';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';
import { clientIpResolver } from '../../server/transports/grpc/call-context.ts';
import { metricValue, scrape } from './support.ts';

function get(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.baseUrl + path, { headers: { origin: server.baseUrl, ...headers } });
}

/** Spends the allowance of this test's IP (127.0.0.1, or `forwardedFor` behind a trusted proxy). */
async function exhaust(server: TestServer, headers: Record<string, string> = {}): Promise<Response> {
  for (let i = 0; i < 100; i++) {
    const res = await get(server, '/v1/meta', headers);
    if (res.status === 429) return res;
    await res.arrayBuffer();
  }
  throw new Error('never limited');
}

describe('per-IP rate limit', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer(['--rate-limit-rps', '2', '--rate-limit-burst', '3']);
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  test('rps plus burst pass at once, then REST answers 429 resource_exhausted with Retry-After', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(server, '/v1/meta')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429], '2 rps + 3 burst');
    const refused = await exhaust(server);
    assert.deepEqual(await refused.json(), { code: 'resource_exhausted', message: 'too many requests: slow down' });
    assert.equal(refused.headers.get('retry-after'), '1');
    // Every route, an unknown one included: scanners are limited too.
    assert.equal((await get(server, '/no/such/route')).status, 429);
  });

  test('/graphql answers 429 in the GraphQL error shape', async () => {
    await exhaust(server);
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ meta { version } }' }),
    });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '1');
    assert.deepEqual(await res.json(), { errors: [{ message: 'too many requests: slow down', extensions: { code: 'TOO_MANY_REQUESTS', retryAfter: 1 } }] });
  });

  test('gRPC answers RESOURCE_EXHAUSTED with retry-after trailing metadata; the IP is one budget', async () => {
    await exhaust(server);
    const failure = await refusal(grpc.call('PublicService', 'Meta'));
    assert.equal(failure.code, status.RESOURCE_EXHAUSTED);
    assert.equal(failure.details, 'too many requests: slow down');
    assert.deepEqual(failure.trailers.get('retry-after'), ['1']);
  });

  test('without --trusted-proxies a spoofed X-Forwarded-For changes nothing, over HTTP and gRPC', async () => {
    await exhaust(server);
    assert.equal((await get(server, '/v1/meta', { 'x-forwarded-for': '203.0.113.7' })).status, 429);
    const failure = await refusal(grpc.call('PublicService', 'Meta', {}, { 'x-forwarded-for': '203.0.113.8' }));
    assert.equal(failure.code, status.RESOURCE_EXHAUSTED);
  });

  test('the limit lifts after the window', async () => {
    await exhaust(server);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await get(server, '/v1/meta')).status, 200);
    assert.ok((await grpc.call('PublicService', 'Meta')).response);
  });

  test('/metrics counts limited requests by route and bucket', async () => {
    const text = await scrape(server);
    assert.ok(metricValue(text, 'portcullis_rate_limited_total', { route: '/v1/meta', bucket: 'ip' }) >= 4);
    assert.ok(metricValue(text, 'portcullis_rate_limited_total', { route: '/graphql', bucket: 'ip' }) >= 1);
    assert.ok(metricValue(text, 'portcullis_rate_limited_total', { route: '/portcullis.v1.PublicService/Meta', bucket: 'ip' }) >= 2);
  });
});

describe('per-IP rate limit behind --trusted-proxies', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer(['--rate-limit-rps', '1', '--rate-limit-burst', '0', '--trusted-proxies', '127.0.0.1/32']);
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  test('the forwarded client is counted, over HTTP and gRPC alike', async () => {
    await exhaust(server, { 'x-forwarded-for': '198.51.100.1' });
    assert.equal((await get(server, '/v1/meta', { 'x-forwarded-for': '198.51.100.2' })).status, 200, 'another client behind the proxy');
    // gRPC takes the same client IP from x-forwarded-for metadata: that client is spent, a third is not.
    const spent = await refusal(grpc.call('PublicService', 'Meta', {}, { 'x-forwarded-for': '198.51.100.1' }));
    assert.equal(spent.code, status.RESOURCE_EXHAUSTED);
    assert.ok((await grpc.call('PublicService', 'Meta', {}, { 'x-forwarded-for': '198.51.100.3' })).response);
  });
  test('IPv6 clients are counted by their /64: another address of the same /64 is refused, another /64 is not', async () => {
    await exhaust(server, { 'x-forwarded-for': '2001:db8:7:1::10' });
    assert.equal((await get(server, '/v1/meta', { 'x-forwarded-for': '2001:db8:7:1:abcd::99' })).status, 429);
    assert.equal((await get(server, '/v1/meta', { 'x-forwarded-for': '2001:db8:7:2::10' })).status, 200);
  });
});

test('gRPC client IP: the x-forwarded-for chain is walked from the right while peers are trusted', () => {
  const call = (peer: string, forwarded?: string[]) => {
    const metadata = new Metadata();
    for (const value of forwarded ?? []) metadata.add('x-forwarded-for', value);
    return { getPeer: () => peer, metadata } as unknown as ServerUnaryCall<unknown, unknown>;
  };
  const untrusting = clientIpResolver([]);
  assert.equal(untrusting(call('ipv4:10.0.0.5:4000', ['1.2.3.4'])), '10.0.0.5', 'no trusted proxies: metadata ignored');
  const resolve = clientIpResolver(['10.0.0.0/8']);
  assert.equal(resolve(call('ipv4:10.0.0.5:4000', ['1.2.3.4'])), '1.2.3.4');
  assert.equal(resolve(call('ipv4:10.0.0.5:4000', ['1.2.3.4, 10.0.0.9'])), '1.2.3.4', 'two trusted hops');
  assert.equal(resolve(call('ipv4:10.0.0.5:4000', ['1.2.3.4', '10.0.0.9'])), '1.2.3.4', 'split entries are one list');
  assert.equal(resolve(call('ipv4:10.0.0.5:4000', ['1.2.3.4, 5.6.7.8'])), '5.6.7.8', 'stops at the first untrusted address');
  assert.equal(resolve(call('ipv4:8.8.8.8:4000', ['1.2.3.4'])), '8.8.8.8', 'an untrusted peer cannot forward');
  assert.equal(resolve(call('ipv6:[::1]:4000', ['1.2.3.4'])), '::1');
  assert.equal(resolve(call('ipv4:10.0.0.5:4000')), '10.0.0.5', 'no header');
});
