/**
 * Error paths of the GraphQL transport: effects applied even when an operation fails, unexpected errors
 * hidden behind a generic message with the request id (node-oidc-provider habit, kernel/errors.ts), and the
 * formatter's handling of errors that carry no AppError.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { GraphQLError } from 'graphql';
import { pino } from 'pino';
import { startServer, type TestServer } from '../support/app.ts';
import { defineOperation, type AnyOperation } from '../../server/ops/define.ts';
import { createRegistry, OPERATIONS } from '../../server/ops/registry.ts';
import { s, NoInput, MessageResponse } from '../../server/ops/schema.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { formatGraphqlError } from '../../server/transports/graphql/errors.ts';
import { onlyError, postGraphql } from './client.ts';

const cookieThenFail = defineOperation({
  name: 'cookie_then_fail',
  admin: false,
  kind: 'mutation',
  description: 'sets a cookie, then refuses',
  input: NoInput,
  output: MessageResponse,
  auth: 'public',
  transaction: false,
  handler: async (_input, ctx) => {
    ctx.effects.clearCookie({ name: 'probe', httpOnly: true, secure: false, sameSite: 'Lax', path: '/' });
    throw AppError.forbidden('refused after clearing');
  },
});

const crash = defineOperation({
  name: 'crash',
  admin: false,
  kind: 'query',
  description: 'fails with a non-AppError carrying a secret-looking detail',
  input: s.object('CrashRequest', { note: s.optional(s.string()) }),
  output: MessageResponse,
  auth: 'public',
  handler: async () => {
    throw new Error('db password is hunter2');
  },
});

describe('GraphQL error paths', () => {
  let server: TestServer;
  before(async () => {
    const registry = createRegistry([...OPERATIONS, cookieThenFail, crash] as unknown as AnyOperation[]);
    server = await startServer([], { registry });
  });
  after(() => server.close());

  test('a failing operation still sends the cookies it set', async () => {
    const reply = await postGraphql(server, 'mutation { cookie_then_fail { message } }');
    assert.deepEqual(onlyError(reply), { message: 'refused after clearing', code: 'PERMISSION_DENIED' });
    const cookie = reply.headers.getSetCookie().find((c) => c.startsWith('probe='));
    assert.ok(cookie, 'expected the probe cookie to be cleared');
    assert.match(cookie, /Max-Age=0/);
  });

  test('an unexpected error answers INTERNAL with the request id and no detail', async () => {
    const reply = await postGraphql(server, '{ crash(params: {}) { message } }');
    assert.equal(reply.status, 200);
    const error = onlyError(reply);
    assert.equal(error.code, 'INTERNAL');
    assert.match(error.message, /^internal server error \(request id [0-9a-f-]{36}\)$/);
    assert.ok(!JSON.stringify(reply.body).includes('hunter2'));
  });
});

describe('formatGraphqlError', () => {
  const scope = { requestId: 'req-1', log: pino({ level: 'silent' }) };

  test('an execution error without AppError is hidden, extensions included', () => {
    const error = new GraphQLError('Int64 cannot represent "secret"', {
      path: ['meta', 'version'],
      originalError: Object.assign(new Error('inner secret'), { extensions: { leak: 'secret' } }),
    });
    assert.deepEqual(formatGraphqlError(error, scope), {
      message: 'internal server error (request id req-1)',
      path: ['meta', 'version'],
      extensions: { code: 'INTERNAL' },
    });
  });

  test('request errors keep their message; a rule-chosen code is kept', () => {
    assert.deepEqual(formatGraphqlError(new GraphQLError('Cannot query field "x"'), scope), {
      message: 'Cannot query field "x"',
      extensions: { code: 'INVALID_ARGUMENT' },
    });
    const ruled = new GraphQLError('no', { extensions: { code: 'PERMISSION_DENIED' } });
    assert.equal(formatGraphqlError(ruled, scope).extensions?.code, 'PERMISSION_DENIED');
  });

  test('an AppError keeps its public message and maps its kind', () => {
    const wrapped = new GraphQLError('ignored', { path: ['x'], originalError: new AppError('already_exists', 'user with given email already exists') });
    assert.deepEqual(formatGraphqlError(wrapped, scope), {
      message: 'user with given email already exists',
      path: ['x'],
      extensions: { code: 'ALREADY_EXISTS' },
    });
  });
});
