/**
 * Helpers of the registered-client tests: register clients through the admin REST API, and call the OAuth
 * endpoints over real HTTP with client_secret_basic or client_secret_post, as a back-end would (no Origin).
 */
import assert from 'node:assert/strict';
import { type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';

export interface Registered {
  id: string;
  clientId: string;
  secret: string;
}

export type Credentials = { basic: [string, string] } | { post: [string, string] } | { id: string } | Record<string, never>;

export function admin(server: TestServer) {
  const call = (op: string, body: Record<string, unknown>) => adminClient(server).ok(op, body);
  return {
    call,
    async create(allowedScopes: string[] = ['jobs:read', 'jobs:write'], name = 'machine'): Promise<Registered> {
      const body = await call('create_client', { name, allowed_scopes: allowedScopes });
      return { id: body.client.id, clientId: body.client.client_id, secret: body.client_secret };
    },
    async rotate(client: Registered): Promise<string> {
      return (await call('rotate_client_secret', { id: client.id })).client_secret;
    },
    setActive: (client: Registered, active: boolean) => call('update_client', { id: client.id, is_active: active }),
    remove: (client: Registered) => call('delete_client', { id: client.id }),
  };
}

export const basic = (client: Pick<Registered, 'clientId' | 'secret'>): Credentials => ({ basic: [client.clientId, client.secret] });
export const post = (client: Pick<Registered, 'clientId' | 'secret'>): Credentials => ({ post: [client.clientId, client.secret] });

/** A form POST to an OAuth endpoint with the given client credentials. */
export async function oauthPost(
  server: TestServer,
  path: string,
  fields: Record<string, string>,
  credentials: Credentials,
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const form = { ...fields };
  if ('basic' in credentials) {
    const [id, secret] = credentials.basic;
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  } else if ('post' in credentials) {
    form.client_id = credentials.post[0];
    form.client_secret = credentials.post[1];
  } else if ('id' in credentials) {
    form.client_id = credentials.id;
  }
  const res = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** grant_type=client_credentials with an optional scope. */
export function clientCredentials(server: TestServer, credentials: Credentials, scope?: string) {
  return oauthPost(server, '/oauth/token', { grant_type: 'client_credentials', ...(scope !== undefined ? { scope } : {}) }, credentials);
}

export function assertInvalidClient(reply: { status: number; body: any; headers: Headers }, viaBasic: boolean): void {
  assert.equal(reply.status, 401, JSON.stringify(reply.body));
  assert.equal(reply.body.error, 'invalid_client');
  assert.equal(reply.headers.get('cache-control'), 'no-store');
  if (viaBasic) assert.match(reply.headers.get('www-authenticate') ?? '', /^Basic /);
  else assert.equal(reply.headers.get('www-authenticate'), null);
}
