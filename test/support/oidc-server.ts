/**
 * A server for the strict relying-party tests (openid-client): it must know its own URL before it listens,
 * since the issuer (--url) is what discovery, every token's iss and the relying party compare exactly
 * (OpenID Connect Discovery 1.0 section 4.3). So a free loopback port is found first and passed as both
 * --http-port and --url. Signing is ES256, so ID tokens verify against the published JWKS.
 */
import { createServer } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './app.ts';
import type { AppOverrides } from '../../server/app.ts';
import { adminClient } from './admin-client.ts';
import { signedInUser } from './signed-in-user.ts';

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
export async function startOidcServer(extra: string[] = [], overrides: AppOverrides = {}): Promise<TestServer> {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  // Another process may take the port between the probe and the listen: try a few ports.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    try {
      return await startServer([
        '--url', `http://127.0.0.1:${port}`, '--http-port', String(port),
        '--jwt-type', 'ES256', '--jwt-private-key', key, '--encryption-key', 'oidc-test-encryption-key', ...extra,
      ], overrides);
    } catch (err) {
      if (attempt >= 3 || !String((err as Error).message).includes('EADDRINUSE')) throw err;
    }
  }
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
  const user = await signedInUser(server, { email, password: OIDC_PASSWORD, profile: { given_name: 'Grace' }, scope });
  assert.ok(user.sessionCookie, 'login sets cookie_session');
  const { access_token, id_token, refresh_token } = user.answer;
  return { userId: user.userId, email, cookie: `cookie_session=${user.sessionCookie}`, tokens: { access_token, id_token, refresh_token } };
}

/** A registered client made with the admin operation create_client (REST); answers its id, client_id and secret. */
export async function registerClient(server: TestServer, fields: Record<string, unknown>): Promise<{ id: string; clientId: string; secret: string }> {
  const created = await adminClient(server).ok('create_client', fields);
  return { id: created.client.id, clientId: created.client.client_id, secret: created.client_secret };
}
