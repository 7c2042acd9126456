/**
 * Helpers for the /authorize and authorization_code tests: a signed-in browser (POST /v1/signup and
 * /v1/login over real HTTP, the session cookie kept as a Cookie header), PKCE pairs, /authorize calls that
 * do not follow redirects, the token endpoint, and registered clients made through the admin API.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { TestServer } from '../support/app.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { adminClient } from '../support/admin-client.ts';

export const PASSWORD = 'Str0ng!pass';
export const CALLBACK = 'http://127.0.0.1:3000/callback';

/** base64url of 32 random bytes: 43 characters, within RFC 7636 section 4.1. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier, 'ascii').digest('base64url') };
}

async function postJson(server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(server.baseUrl + path, {
    method: 'POST',
    // The canonical --url origin of the test servers passes the CSRF rule whatever --allowed-origins says.
    headers: { origin: 'http://127.0.0.1:8080', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, cookies: res.headers.getSetCookie() };
}

export interface Browser {
  email: string;
  /** Cookie header carrying the session. */
  cookie: string;
  userId: string;
}

/** Signs a new user up, then logs in through POST /v1/login: the browser's cookie_session. */
export async function signedInBrowser(server: TestServer, email?: string): Promise<Browser> {
  const user = await signedInUser(server, { email, password: PASSWORD });
  assert.ok(user.sessionCookie, 'login sets cookie_session');
  return { email: user.email, cookie: `cookie_session=${user.sessionCookie}`, userId: user.userId };
}

/** GET /authorize without following redirects. */
export function authorize(server: TestServer, params: Record<string, string>, cookie?: string): Promise<Response> {
  return fetch(`${server.baseUrl}/authorize?${new URLSearchParams(params)}`, {
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
  });
}

/** The parameters of a redirect's query (mode query) or fragment (mode fragment). */
export function redirectParams(res: Response, where: 'query' | 'fragment' = 'query'): { url: URL; params: URLSearchParams } {
  assert.equal(res.status, 302, `expected a redirect, got ${res.status}`);
  const location = res.headers.get('location');
  assert.ok(location, 'Location header');
  const url = new URL(location);
  return { url, params: new URLSearchParams(where === 'query' ? url.search : url.hash.slice(1)) };
}

/** The code of a successful code-flow redirect to CALLBACK (or another redirect_uri). */
export async function codeFrom(res: Response, state: string, redirectUri = CALLBACK): Promise<string> {
  const { url, params } = redirectParams(res);
  assert.equal(`${url.origin}${url.pathname}`, redirectUri);
  assert.equal(params.get('error'), null, params.get('error_description') ?? '');
  assert.equal(params.get('state'), state);
  const code = params.get('code');
  assert.ok(code, 'code in the redirect');
  return code;
}

export async function tokenRequest(server: TestServer, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

/** Whether POST /v1/validate_jwt_token accepts the token now. */
export async function tokenIsValid(server: TestServer, token: string, tokenType = 'access_token'): Promise<boolean> {
  const res = await postJson(server, '/v1/validate_jwt_token', { token_type: tokenType, token });
  return res.status === 200 && res.body.is_valid === true;
}

export interface RegisteredClient {
  clientId: string;
  secret: string;
  id: string;
}

export async function createClient(server: TestServer, fields: Record<string, unknown>): Promise<RegisteredClient> {
  const created = await adminClient(server).ok('create_client', { name: 'Relying party', ...fields });
  return { clientId: created.client.client_id, secret: created.client_secret, id: created.client.id };
}

/** A registered or instance-client operation call as the signed-in browser (REST, JSON). */
export function callAs(server: TestServer, browser: Browser, op: string, body: unknown = {}) {
  return postJson(server, `/v1/${op}`, body, { cookie: browser.cookie });
}

export function basicAuth(clientId: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` };
}
