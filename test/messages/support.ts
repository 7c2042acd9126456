/** Helpers of the message outbox tests: raw answers for exact comparison, accounts made in storage. */
import assert from 'node:assert/strict';
import type { TestServer } from '../support/app.ts';
import { createUser, User, type UserRow } from '../../server/modules/users/index.ts';

export interface RawAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** Headers that differ per response whatever the account: the date and the request id. */
const PER_RESPONSE = new Set(['date', 'x-request-id', 'request-id']);

export async function rawPost(server: TestServer, path: string, body: unknown): Promise<RawAnswer> {
  const res = await fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { origin: server.baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!PER_RESPONSE.has(name)) headers[name] = value;
  });
  return { status: res.status, body: await res.text(), headers };
}

/** Status, body and headers (but date and request id) are identical. */
export function assertSameAnswer(known: RawAnswer, unknown: RawAnswer, what: string): void {
  assert.equal(known.status, unknown.status, `${what}: status ${known.body} / ${unknown.body}`);
  assert.equal(known.body, unknown.body, `${what}: body`);
  assert.deepEqual(known.headers, unknown.headers, `${what}: headers`);
}

/** An account written straight to storage (signup may be off on the server under test). */
export async function makeUser(server: TestServer, data: { email?: string; phone?: string; revoked?: boolean; verified?: boolean }): Promise<UserRow> {
  const em = server.app.deps.storage.fork();
  const now = new Date();
  const user = await em.transactional((tx) =>
    createUser(tx, server.app.deps.clock, {
      email: data.email,
      phoneNumber: data.phone,
      signupMethods: [data.phone && !data.email ? 'mobile_basic_auth' : 'basic_auth'],
      roles: ['user'],
      emailVerifiedAt: data.email && data.verified !== false ? now : undefined,
      phoneNumberVerifiedAt: data.phone ? now : undefined,
    }),
  );
  if (data.revoked) {
    await em.nativeUpdate(User, { id: user.id }, { revokedAt: now });
  }
  return user;
}
