/**
 * The embedded frontends over HTTP (server/transports/http/ui): security headers, caching, the SPA fallback
 * only under each prefix, the redirect_uri refusal, branding, and --enable-login-page. Needs dist/ui from
 * `npm run build` (npm test builds first).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';

async function get(server: TestServer, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, { headers, redirect: 'manual' });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body, text: body.toString('utf8') };
}

function assetPaths(html: string, prefix: string): string[] {
  return [...html.matchAll(new RegExp(`(?:src|href)="(/${prefix}/assets/[^"]+)"`, 'g'))].map((match) => match[1]!);
}

describe('embedded UIs', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--organization-name', 'Acme "<script>alert(1)</script>"', '--allowed-origins', 'https://app.example.com']);
  });
  after(() => server?.close());

  test('the login page: a strict CSP with no inline script, never cached, branding escaped', async () => {
    const page = await get(server, '/app');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-eval|script-src[^;]*unsafe-inline/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    assert.doesNotMatch(page.text, /<script>(?!<\/script>)|<script(?![^>]*\bsrc=)[^>]*>/, 'every script is a file');
    assert.ok(page.text.includes('content="Acme &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;"'), 'the name is escaped into a meta tag');
    assert.ok(!page.text.includes('<script>alert(1)'));
  });

  test('hashed assets are immutable for a year, brotli when accepted, 304 on a matching ETag', async () => {
    const page = await get(server, '/dashboard/');
    const [script] = assetPaths(page.text, 'dashboard').filter((path) => path.endsWith('.js'));
    assert.ok(script, 'the console page names its script');
    const plain = await get(server, script!, { 'accept-encoding': 'identity' });
    assert.equal(plain.status, 200);
    assert.match(plain.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(plain.headers.get('content-encoding'), null);
    const compressed = await fetch(`${server.baseUrl}${script}`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(compressed.headers.get('content-encoding'), 'br');
    assert.deepEqual(Buffer.from(await compressed.arrayBuffer()), plain.body, 'fetch decodes the brotli copy to the same bytes');
    const again = await get(server, script!, { 'if-none-match': plain.headers.get('etag')! });
    assert.equal(again.status, 304);
  });

  test('the SPA fallback answers deep links under its prefix only; a missing asset is a 404', async () => {
    const deep = await get(server, '/app/reset-password?token=abc');
    assert.equal(deep.status, 200);
    assert.match(deep.text, /<div id="root">/);
    const missing = await get(server, '/app/assets/missing-123.js');
    assert.equal(missing.status, 404);
    assert.doesNotMatch(missing.text, /<div id="root">/);
    const outside = await get(server, '/apps/anything');
    assert.equal(outside.status, 404);
    const traversal = await get(server, '/app/..%2f..%2fpackage.json');
    assert.match(traversal.text, /<div id="root">/, 'an unknown path is the page, never a file outside the manifest');
  });

  test('a redirect_uri that is not allowed is refused before any script runs; an allowed one is served', async () => {
    const refused = await get(server, '/app?redirect_uri=https%3A%2F%2Fevil.example%2Fcb&state=x');
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('location'), null);
    assert.doesNotMatch(refused.text, /evil\.example|<script/);
    const allowed = await get(server, '/app/login?redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&state=x');
    assert.equal(allowed.status, 200);
  });

  test('GET / opens the console', async () => {
    const root = await get(server, '/');
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/dashboard/');
  });
});

describe('--enable-login-page=false', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--enable-login-page=false']);
  });
  after(() => server?.close());

  test('the login UI is not served; the console still is', async () => {
    assert.equal((await get(server, '/app')).status, 404);
    assert.equal((await get(server, '/app/login')).status, 404);
    assert.equal((await get(server, '/dashboard/')).status, 200);
  });
});
