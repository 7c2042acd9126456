/**
 * HTTP cross-cutting policy over real HTTP: CSRF (docs/api-overview.md#authentication), CORS for the SDK headers, 405 for the wrong
 * method (docs/errors.md), error envelope, security headers, client-id header check (docs/sdk-compatibility.md).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';

describe('REST policy', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(['--allowed-origins', 'https://app.example.com,https://*.tenant.example.org']);
  });
  after(() => server.close());

  const post = (path: string, headers: Record<string, string> = {}, body: unknown = {}) =>
    fetch(server.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  test('a POST without Origin or Referer answers 403 in the error envelope', async () => {
    const res = await post('/v1/admin/login', {}, { admin_secret: 'x' });
    assert.equal(res.status, 403);
    const body = await res.json();
    assert.equal(body.code, 'permission_denied');
    assert.match(body.message, /Origin or Referer/);
  });

  test('a POST from an allowed origin or its Referer passes the CSRF rule', async () => {
    const byOrigin = await post('/v1/admin/login', { origin: 'https://app.example.com' }, { admin_secret: 'wrong' });
    assert.equal(byOrigin.status, 401);
    const byReferer = await post('/v1/admin/login', { referer: 'https://x.tenant.example.org/page?a=1' }, { admin_secret: 'wrong' });
    assert.equal(byReferer.status, 401);
  });

  test('a POST from an origin outside --allowed-origins is refused', async () => {
    const res = await post('/v1/admin/login', { origin: 'https://evil.example.net' }, { admin_secret: 'x' });
    assert.equal(res.status, 403);
  });

  test('the OAuth token and revoke endpoints are exempt from the CSRF rule', async () => {
    const res = await post('/oauth/token');
    assert.notEqual(res.status, 403);
  });

  test('only the SAML ACS and IdP SSO routes themselves are exempt: one organization segment each', async () => {
    // Exempt: answered by the route (no such organization), not refused by the CSRF rule.
    assert.notEqual((await post('/saml/no-such-org/sso')).status, 403);
    assert.notEqual((await post('/sso/saml/no-such-org/acs')).status, 403);
    // Deeper paths that merely start and end alike are under the rule.
    for (const path of ['/saml/a/b/sso', '/sso/saml/a/b/acs', '/saml/sso', '/saml/a/sso/']) {
      assert.equal((await post(path)).status, 403, path);
    }
  });

  test('the wrong method answers 405 method_not_allowed with Allow', async () => {
    const res = await fetch(`${server.baseUrl}/v1/admin/login`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.equal((await res.json()).code, 'method_not_allowed');
    const postOnGet = await post('/v1/meta', { origin: 'https://app.example.com' });
    assert.equal(postOnGet.status, 405);
    assert.equal((await postOnGet.json()).code, 'method_not_allowed');
  });

  test('a GraphQL-only operation answers a clear REST error', async () => {
    const res = await post('/v1/admin/admin_signup', { origin: 'https://app.example.com' });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.code, 'unimplemented');
    assert.match(body.message, /GraphQL/);
  });

  test('malformed JSON and wrong field types answer 400 invalid_argument', async () => {
    const bad = await fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://app.example.com' },
      body: '{"admin_secret":',
    });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, 'invalid_argument');
    const wrongType = await post('/v1/admin/login', { origin: 'https://app.example.com' }, { admin_secret: 42 });
    assert.equal(wrongType.status, 400);
    const body = await wrongType.json();
    assert.equal(body.code, 'invalid_argument');
    assert.match(body.message, /admin_secret/);
  });

  test('unknown routes answer 404 not_found as JSON', async () => {
    const res = await fetch(`${server.baseUrl}/v1/nope`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, 'not_found');
  });

  test('CORS preflight allows the SDK headers for an allowed origin only', async () => {
    const ok = await fetch(`${server.baseUrl}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-authorizer-url,x-authorizer-client-id',
      },
    });
    assert.ok(ok.status === 204 || ok.status === 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.equal(ok.headers.get('access-control-allow-credentials'), 'true');
    const allowed = (ok.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    assert.ok(allowed.includes('x-authorizer-url') && allowed.includes('x-authorizer-client-id'));
    const denied = await fetch(`${server.baseUrl}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' },
    });
    assert.equal(denied.headers.get('access-control-allow-origin'), null);
  });

  test('responses carry security headers', async () => {
    const res = await fetch(`${server.baseUrl}/v1/meta`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(res.headers.get('content-security-policy'));
    assert.ok(res.headers.get('referrer-policy'));
  });

  test('x-authorizer-client-id must name the instance client when present', async () => {
    const good = await fetch(`${server.baseUrl}/v1/meta`, { headers: { 'x-authorizer-client-id': CLIENT_ID } });
    assert.equal(good.status, 200);
    const bad = await fetch(`${server.baseUrl}/v1/meta`, { headers: { 'x-authorizer-client-id': 'someone-else' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: 'invalid_client_id' });
  });
});

describe('CSRF with allowed origins *', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('the Origin host must equal the request host', async () => {
    const headers = { 'content-type': 'application/json' };
    const same = await fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { ...headers, origin: server.baseUrl },
      body: JSON.stringify({ admin_secret: 'wrong' }),
    });
    assert.equal(same.status, 401);
    const other = await fetch(`${server.baseUrl}/v1/admin/login`, {
      method: 'POST',
      headers: { ...headers, origin: 'http://elsewhere.example:9999' },
      body: JSON.stringify({ admin_secret: 'wrong' }),
    });
    assert.equal(other.status, 403);
  });
});

describe('CSRF on /graphql', () => {
  test('a GraphQL POST without Origin is refused with a GraphQL-shaped 403', async () => {
    const server = await startServer();
    try {
      const res = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ meta { version } }' }),
      });
      assert.equal(res.status, 403);
      const body = await res.json();
      assert.equal(body.errors[0].extensions.code, 'PERMISSION_DENIED');
      assert.match(body.errors[0].message, /Origin or Referer/);
    } finally {
      await server.close();
    }
  });
});
