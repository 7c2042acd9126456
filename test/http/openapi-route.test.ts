/**
 * GET /openapi.json over real HTTP (server/transports/http/openapi-route.ts): the server answers the committed
 * openapi/portcullis.v1.json byte for byte (made from its own registry, so the single executable needs no
 * file), public with CORS like the other public GETs, revalidated by ETag, and only where REST /v1 is mounted.
 * The document's paths and methods are the server's: every other method on a documented path answers 405
 * with an Allow header naming exactly the documented methods.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from '../support/app.ts';
import { OPENAPI_FILE } from '../../build/gen-api-reference.ts';

const committed = readFileSync(OPENAPI_FILE, 'utf8');

describe('GET /openapi.json', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.close());

  test('answers the committed document, as JSON, never cached without revalidation', async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    assert.equal(await response.text(), committed);
  });

  test('a revalidation with the ETag answers 304 without a body', async () => {
    const first = await fetch(`${server.baseUrl}/openapi.json`);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const again = await fetch(`${server.baseUrl}/openapi.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });

  test('any origin may read it (uncredentialed CORS under the default --allowed-origins *)', async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`, { headers: { origin: 'https://docs.example.net' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });

  test('every documented path takes exactly the documented methods (405 with Allow for any other)', async () => {
    const paths = JSON.parse(committed).paths as Record<string, Record<string, unknown>>;
    for (const [path, item] of Object.entries(paths)) {
      const methods = Object.keys(item).map((method) => method.toUpperCase()).sort();
      const other = methods.includes('GET') && methods.includes('POST') ? 'PUT' : methods.includes('GET') ? 'POST' : 'GET';
      const response = await fetch(`${server.baseUrl}${path}`, { method: other, headers: { origin: server.baseUrl } });
      assert.equal(response.status, 405, `${other} ${path}`);
      assert.deepEqual(response.headers.get('allow')?.split(', ').sort(), methods, path);
      assert.equal((await response.json()).code, 'method_not_allowed');
    }
  });
});

describe('GET /openapi.json without REST', () => {
  test('is not served when /v1 is not mounted (--enable-grpc=false)', async () => {
    const server = await startServer(['--enable-grpc=false']);
    try {
      assert.equal((await fetch(`${server.baseUrl}/v1/meta`)).status, 404);
      const response = await fetch(`${server.baseUrl}/openapi.json`);
      assert.equal(response.status, 404);
      assert.equal((await response.json()).code, 'not_found');
    } finally {
      await server.close();
    }
  });
});
