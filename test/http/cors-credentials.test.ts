/**
 * Credentialed CORS (Fetch standard "CORS protocol and credentials"; OWASP ASVS 4.0 14.5.3): under the default
 * `--allowed-origins *` a foreign page may read uncredentialed answers but never gets
 * Access-Control-Allow-Credentials, so it cannot read GET /v1/profile with the visitor's session cookie. Only
 * origins listed explicitly (exact or `*.` wildcard) get credentialed CORS, on simple requests and preflights.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { signedUpUser } from '../support/signed-in-user.ts';

const PASSWORD = 'Cors-Test-Passw0rd!';

async function sessionCookie(server: TestServer): Promise<string> {
  const { sessionCookie } = await signedUpUser(server, { email: 'cors@example.com', password: PASSWORD });
  assert.ok(sessionCookie, 'signup opens a session');
  return `cookie_session=${sessionCookie}`;
}

async function profileFrom(server: TestServer, origin: string, cookie: string): Promise<Response> {
  const res = await fetch(`${server.baseUrl}/v1/profile`, { headers: { origin, cookie } });
  await res.arrayBuffer();
  return res;
}

async function preflight(server: TestServer, origin: string): Promise<Response> {
  const res = await fetch(`${server.baseUrl}/v1/profile`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' },
  });
  await res.arrayBuffer();
  return res;
}

describe('CORS under the default --allowed-origins *', () => {
  let server: TestServer;
  let cookie: string;
  before(async () => {
    server = await startServer();
    cookie = await sessionCookie(server);
  });
  after(() => server.close());

  test('a foreign origin reading /v1/profile with the session cookie gets no credentialed CORS', async () => {
    const res = await profileFrom(server, 'https://evil.example', cookie);
    assert.equal(res.status, 200, 'the cookie itself is valid');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    // `*` is what browsers refuse for a credentialed request, so the page cannot read the profile.
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('vary') ?? '', /origin/i, 'the answer depends on Origin: caches must key on it');
  });

  test('a preflight from a foreign origin gets no credentials either', async () => {
    const res = await preflight(server, 'https://evil.example');
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
  });
});

describe('CORS with explicitly listed origins', () => {
  let server: TestServer;
  let cookie: string;
  before(async () => {
    server = await startServer(['--allowed-origins', '*,https://app.example.com,https://*.tenant.example.org']);
    cookie = await sessionCookie(server);
  });
  after(() => server.close());

  test('a listed origin is echoed with credentials, on GET and on preflight', async () => {
    for (const origin of ['https://app.example.com', 'https://a.tenant.example.org']) {
      const res = await profileFrom(server, origin, cookie);
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
      assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
      const pre = await preflight(server, origin);
      assert.equal(pre.headers.get('access-control-allow-origin'), origin);
      assert.equal(pre.headers.get('access-control-allow-credentials'), 'true');
    }
  });

  test('beside the listed origins, `*` still grants no credentials to the others', async () => {
    const res = await profileFrom(server, 'https://tenant.example.org.evil.example', cookie);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
  });
});
