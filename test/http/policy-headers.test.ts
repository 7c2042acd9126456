/**
 * The HTTP policy hook (transports/http/security.ts, cors.ts) sets the security headers when a request
 * arrives (OWASP ASVS 4.0 14.4), so every answer carries them whatever ends the request: a route, a 404, a
 * body the parser refuses, the CSRF rule, the client-id check, a CORS preflight, the per-IP limit. CORS
 * answers as @fastify/cors did with this server's options: `Vary: Origin` always, preflights 204 with the
 * allowed methods, headers and max age, a preflight without Access-Control-Request-Method 400, and any
 * other OPTIONS request 404.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

function assertPolicyHeaders(res: Response, what: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers.get(name), value, `${what}: ${name}`);
  assert.match(res.headers.get('vary') ?? '', /\borigin\b/i, `${what}: Vary`);
}

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res;
}

describe('policy headers on every answer', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--allowed-origins', '*,https://app.example.com']);
  });
  after(() => server.close());

  test('200, 404, malformed JSON, too large a body, CSRF refusal and a foreign client id all carry them', async () => {
    const base = server.baseUrl;
    const json = { 'content-type': 'application/json', origin: base };
    const cases: Array<[string, number, Promise<Response>]> = [
      ['meta', 200, call(`${base}/v1/meta`)],
      ['unknown route', 404, call(`${base}/no/such/route`)],
      ['malformed JSON', 400, call(`${base}/v1/login`, { method: 'POST', headers: json, body: '{"email":' })],
      ['body over 1 MiB', 413, call(`${base}/v1/login`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'x'.repeat(1_100_000) }) })],
      ['CSRF', 403, call(`${base}/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })],
      ['client id', 400, call(`${base}/v1/meta`, { headers: { 'x-authorizer-client-id': 'someone-else' } })],
    ];
    for (const [what, status, answer] of cases) {
      const res = await answer;
      assert.equal(res.status, status, what);
      assertPolicyHeaders(res, what);
    }
  });

  test('a preflight is answered 204 with the allowed methods, headers and max age, and the policy headers', async () => {
    const res = await call(`${server.baseUrl}/v1/profile`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(res.headers.get('access-control-allow-methods'), 'GET, POST, OPTIONS');
    assert.equal(
      res.headers.get('access-control-allow-headers'),
      'Authorization, Content-Type, x-authorizer-url, x-authorizer-client-id, x-service-admin-secret, x-request-id, DPoP',
    );
    assert.equal(res.headers.get('access-control-max-age'), '600');
    assert.equal(res.headers.get('content-length'), '0');
    assertPolicyHeaders(res, 'preflight');
  });

  test('a preflight without Access-Control-Request-Method is 400; OPTIONS without Origin is 404', async () => {
    const invalid = await fetch(`${server.baseUrl}/v1/profile`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com' } });
    assert.equal(invalid.status, 400);
    assert.equal(await invalid.text(), 'Invalid Preflight Request');
    assertPolicyHeaders(invalid, 'invalid preflight');
    const plain = await fetch(`${server.baseUrl}/v1/profile`, { method: 'OPTIONS' });
    assert.equal(plain.status, 404);
    assert.equal(((await plain.json()) as { code: string }).code, 'not_found');
    assert.equal(plain.headers.get('access-control-allow-origin'), null);
    assertPolicyHeaders(plain, 'OPTIONS without Origin');
  });

  test('an origin outside the list gets no CORS headers but the policy headers', async () => {
    const res = await call(`${server.baseUrl}/v1/meta`, { headers: { origin: 'https://evil.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    assertPolicyHeaders(res, 'foreign origin');
  });
});

describe('policy headers on a rate-limited answer', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--rate-limit-rps', '1', '--rate-limit-burst', '1']);
  });
  after(() => server.close());

  test('the 429 of the per-IP limit, refused before the policy hook runs, carries them too', async () => {
    let refused: Response | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const res = await call(`${server.baseUrl}/v1/meta`, { headers: { origin: 'https://page.example' } });
      if (res.status === 429) refused = res;
    }
    assert.ok(refused, 'never limited');
    assertPolicyHeaders(refused, '429');
  });
});
