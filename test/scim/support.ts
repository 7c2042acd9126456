/**
 * A SCIM client for the tests: an organization with a SCIM endpoint made over REST by the super-admin, and
 * requests to /scim/v2/ with its bearer token, answered as {status, headers, body}.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../support/app.ts';
import { adminClient, type AdminReply } from '../support/admin-client.ts';

export interface ScimAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** One super-admin call over REST: status and body (test/support/admin-client.ts). */
export function admin(server: TestServer, name: string, input: Record<string, unknown>): Promise<AdminReply> {
  return adminClient(server).call(name, input);
}

/** The status GET /v1/profile answers an access token: whether the token still opens the account. */
export async function profileStatusOf(server: TestServer, accessToken: string): Promise<number> {
  const res = await fetch(`${server.baseUrl}/v1/profile`, { headers: { authorization: `Bearer ${accessToken}` } });
  await res.arrayBuffer();
  return res.status;
}

/**
 * An organization with a SCIM endpoint and the email domains it provisions verified for it (SCIM makes
 * accounts only for addresses in the organization's verified domains: scim-account-control.ts).
 */
export async function orgWithScim(server: TestServer, domains: readonly string[], name = `org-${randomBytes(4).toString('hex')}`): Promise<{ orgId: string; token: string }> {
  const org = await admin(server, 'create_organization', { name });
  assert.equal(org.status, 200, JSON.stringify(org.body));
  for (const domain of domains) {
    const verified = await admin(server, 'add_verified_org_domain', { org_id: org.body.id, domain });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
  }
  const created = await admin(server, 'create_scim_endpoint', { org_id: org.body.id });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { orgId: org.body.id, token: created.body.token };
}

export function scimClient(server: () => TestServer, token: () => string) {
  return async function scim(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ScimAnswer> {
    const res = await fetch(`${server().baseUrl}/scim/v2${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
}

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export function assertScimError(answer: ScimAnswer, status: number, scimType?: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.deepEqual(answer.body.schemas, [ERROR_SCHEMA]);
  assert.equal(answer.body.status, String(status));
  if (scimType) assert.equal(answer.body.scimType, scimType, JSON.stringify(answer.body));
  assert.equal(typeof answer.body.detail, 'string');
}

export function newUser(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { schemas: [USER_SCHEMA], userName, name: { givenName: 'Given', familyName: 'Family' }, emails: [{ value: userName, type: 'work', primary: true }], active: true, ...extra };
}
