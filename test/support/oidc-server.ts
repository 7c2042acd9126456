/**
 * A server for the strict relying-party tests (openid-client): it must know its own URL before it listens,
 * since the issuer (--url) is what discovery, every token's iss and the relying party compare exactly
 * (OpenID Connect Discovery 1.0 section 4.3). So a free loopback port is found first and passed as both
 * --http-port and --url. Signing is ES256, so ID tokens verify against the published JWKS.
 */
import { createServer } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from './app.ts';
import { cookieValue } from './rest-client.ts';

export const OIDC_PASSWORD = 'Str0ng!pass-for-oidc';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A server on 127.0.0.1:<port> whose --url is exactly that base URL; `extra` flags come last. */
export async function startOidcServer(extra: string[] = []): Promise<TestServer> {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  // Another process may take the port between the probe and the listen: try a few ports.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    try {
      return await startServer([
        '--url', `http://127.0.0.1:${port}`, '--http-port', String(port),
        '--jwt-type', 'ES256', '--jwt-private-key', key, '--encryption-key', 'oidc-test-encryption-key', ...extra,
      ]);
    } catch (err) {
      if (attempt >= 3 || !String((err as Error).message).includes('EADDRINUSE')) throw err;
    }
  }
}

async function postJson(server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { origin: server.baseUrl, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any, cookies: res.headers.getSetCookie() };
}

export interface SignedIn {
  userId: string;
  email: string;
  /** Cookie header carrying cookie_session, as a browser would send it. */
  cookie: string;
  tokens: { access_token: string; id_token: string; refresh_token?: string };
}

/** Signs a new user up and logs in over POST /v1/signup and /v1/login (real argon2id, real session). */
export async function signUpAndLogIn(server: TestServer, scope?: string[]): Promise<SignedIn> {
  const email = `oidc-${randomBytes(5).toString('hex')}@example.com`;
  const signup = await postJson(server, '/v1/signup', { email, password: OIDC_PASSWORD, confirm_password: OIDC_PASSWORD, given_name: 'Grace' });
  assert.equal(signup.status, 200, JSON.stringify(signup.body));
  const login = await postJson(server, '/v1/login', { email, password: OIDC_PASSWORD, ...(scope ? { scope } : {}) });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const session = cookieValue(login.cookies, 'cookie_session');
  assert.ok(session, 'login sets cookie_session');
  const { access_token, id_token, refresh_token } = login.body;
  return { userId: login.body.user.id, email, cookie: `cookie_session=${session}`, tokens: { access_token, id_token, refresh_token } };
}

/** A registered client made with the admin operation create_client (REST); answers its id, client_id and secret. */
export async function registerClient(server: TestServer, fields: Record<string, unknown>): Promise<{ id: string; clientId: string; secret: string }> {
  const created = await postJson(server, '/v1/admin/create_client', fields, { 'x-service-admin-secret': ADMIN_SECRET });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { id: created.body.client.id, clientId: created.body.client.client_id, secret: created.body.client_secret };
}
