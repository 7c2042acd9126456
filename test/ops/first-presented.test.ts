import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstPresented, type CredentialKind } from '../../server/ops/auth.ts';
import { AppError } from '../../server/kernel/errors.ts';
import type { OpContext } from '../../server/kernel/context.ts';

const ctx = {} as OpContext;
const kind = (presented: boolean, outcome: 'ok' | 'refuse', name: string): CredentialKind => ({
  presented: () => presented,
  authenticate: async () => {
    if (outcome === 'refuse') throw AppError.unauthenticated(`${name} refused`);
    return name === 'admin' ? { kind: 'super_admin', via: 'header' } : { kind: 'user', userId: name };
  },
});

test('the first presented kind that authenticates wins', async () => {
  assert.deepEqual(await firstPresented(kind(true, 'ok', 'admin'), kind(true, 'ok', 'u1'))(ctx), { kind: 'super_admin', via: 'header' });
  assert.deepEqual(await firstPresented(kind(false, 'ok', 'admin'), kind(true, 'ok', 'u1'))(ctx), { kind: 'user', userId: 'u1' });
  assert.deepEqual(await firstPresented(kind(true, 'refuse', 'admin'), kind(true, 'ok', 'u1'))(ctx), { kind: 'user', userId: 'u1' });
});

test('a refusal names the first presented kind; with nothing presented the last kind refuses', async () => {
  await assert.rejects(firstPresented(kind(true, 'refuse', 'admin'), kind(false, 'ok', 'u1'))(ctx), /admin refused/);
  await assert.rejects(firstPresented(kind(true, 'refuse', 'admin'), kind(true, 'refuse', 'user'))(ctx), /admin refused/);
  await assert.rejects(firstPresented(kind(false, 'ok', 'admin'), kind(false, 'refuse', 'user'))(ctx), /user refused/);
});
