/**
 * The endpoint pipeline (ops/endpoint.ts, ops/run-endpoint.ts) and its HTTP adapter
 * (transports/http/endpoints.ts): an endpoint runs in the operations' unit of work, so its after-commit work
 * waits for the commit and is dropped with a refusal, whose afterRollback work runs; an OAuthError is written
 * as RFC 6749 section 5.2 JSON, never cached; anything unexpected answers server_error naming the request id,
 * and is logged in full. The storage is a stand-in that records when its transaction commits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import type { Deps } from '../../server/kernel/deps.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { OAuthError } from '../../server/kernel/oauth-error.ts';
import { defineModule } from '../../server/modules/manifest.ts';
import { defineEndpoint, type EndpointAnswer } from '../../server/ops/endpoint.ts';
import type { HandlerContext } from '../../server/ops/define.ts';
import { endpointCsrfExemptions, registerModuleEndpoints } from '../../server/transports/http/endpoints.ts';

interface Harness {
  readonly events: string[];
  readonly logs: Array<Record<string, unknown>>;
  inject(method: 'GET' | 'POST' | 'PUT', url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** A storage whose one transaction notes its commit (or its rollback) in `events`. */
function recordingStorage(events: string[]) {
  const em = { isInTransaction: () => true };
  return {
    fork: () => ({
      async transactional<T>(work: (txEm: typeof em) => Promise<T>): Promise<T> {
        try {
          const result = await work(em);
          events.push('commit');
          return result;
        } catch (err) {
          events.push('rollback');
          throw err;
        }
      },
    }),
  };
}

async function harness(handler: (ctx: HandlerContext, events: string[]) => Promise<EndpointAnswer>): Promise<Harness> {
  const events: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  const deps = { storage: recordingStorage(events), logger } as unknown as Deps;
  const module = defineModule({
    name: 'pipeline-test',
    endpoints: [
      defineEndpoint({
        name: 'pipeline_probe',
        methods: ['POST'],
        path: '/probe',
        refuseOtherMethods: true,
        csrf: { exempt: 'a test endpoint' },
        body: 'oauth',
        errors: 'oauth',
        transaction: true,
        handler: (_request, ctx) => handler(ctx, events),
      }),
    ],
  });
  const http = Fastify({ loggerInstance: logger as unknown as FastifyBaseLogger });
  await registerModuleEndpoints(http, deps, [module]);
  await http.ready();
  return {
    events,
    logs,
    inject: (method, url, headers = {}) => http.inject({ method, url, headers, payload: method === 'POST' ? 'a=1' : undefined }),
  };
}

test('after-commit work runs once the transaction committed, in order, and the answer is never cached', async () => {
  const h = await harness(async (ctx, events) => {
    ctx.afterCommit(async () => void events.push('after-commit 1'));
    ctx.afterCommit(async () => void events.push('after-commit 2'));
    events.push('handler');
    return { kind: 'json', body: { ok: true } };
  });
  const reply = await h.inject('POST', '/probe', { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal(reply.statusCode, 200);
  assert.deepEqual(reply.json(), { ok: true });
  assert.equal(reply.headers['cache-control'], 'no-store');
  assert.deepEqual(h.events, ['handler', 'commit', 'after-commit 1', 'after-commit 2']);
});

test('a refusal drops the after-commit work, runs its afterRollback work and answers RFC 6749 section 5.2 JSON', async () => {
  const h = await harness(async (ctx, events) => {
    ctx.afterCommit(async () => void events.push('after-commit'));
    const refusal = OAuthError.invalidRequest('token is required');
    refusal.afterRollback = async () => void events.push('after-rollback');
    throw refusal;
  });
  const reply = await h.inject('POST', '/probe');
  assert.equal(reply.statusCode, 400);
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  assert.equal(reply.headers['cache-control'], 'no-store');
  assert.equal(reply.headers.pragma, 'no-cache');
  assert.deepEqual(reply.json(), { error: 'invalid_request', error_description: 'token is required' });
  assert.deepEqual(h.events, ['rollback', 'after-rollback']);
});

test('invalid_client over HTTP Basic answers 401 with the Basic challenge', async () => {
  const h = await harness(async () => {
    throw OAuthError.invalidClient('client authentication failed', true);
  });
  const reply = await h.inject('POST', '/probe');
  assert.equal(reply.statusCode, 401);
  assert.equal(reply.headers['www-authenticate'], 'Basic realm="oauth", charset="UTF-8"');
  assert.deepEqual(reply.json(), { error: 'invalid_client', error_description: 'client authentication failed' });
});

test('another AppError answers invalid_request with its message', async () => {
  const h = await harness(async () => {
    throw AppError.precondition('not now');
  });
  const reply = await h.inject('POST', '/probe');
  assert.equal(reply.statusCode, 400);
  assert.deepEqual(reply.json(), { error: 'invalid_request', error_description: 'not now' });
});

test('an unexpected error answers server_error naming the request id, and is logged in full', async () => {
  const h = await harness(async () => {
    throw new Error('database on fire');
  });
  const reply = await h.inject('POST', '/probe');
  assert.equal(reply.statusCode, 500);
  assert.equal(reply.headers['cache-control'], 'no-store');
  const body = reply.json() as { error: string; error_description: string };
  assert.equal(body.error, 'server_error');
  assert.doesNotMatch(body.error_description, /database on fire/);
  const logged = h.logs.find((line) => line.level === 50);
  assert.ok(logged, 'the failure is logged at error level');
  assert.equal(logged.op, 'pipeline_probe');
  assert.match(JSON.stringify(logged.err), /database on fire/);
  assert.ok(body.error_description.includes(`request id ${String(logged.requestId)}`), body.error_description);
});

test('other methods answer 405 with Allow, in the OAuth shape', async () => {
  const h = await harness(async () => ({ kind: 'json', body: {} }));
  const reply = await h.inject('PUT', '/probe');
  assert.equal(reply.statusCode, 405);
  assert.equal(reply.headers.allow, 'POST');
  assert.equal(reply.headers['cache-control'], 'no-store');
  assert.deepEqual(reply.json(), { error: 'invalid_request', error_description: '/probe accepts POST only' });
  assert.deepEqual(h.events, []);
});

test('the CSRF exemptions of the module endpoints are those whose rule says exempt', () => {
  const exempt = endpointCsrfExemptions();
  for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect', '/userinfo', '/logout', '/authorize']) {
    assert.ok(exempt.some((exemption) => exemption.path === path && exemption.methods.includes('POST')), path);
  }
  // An endpoint that follows the Origin rule is not listed.
  assert.ok(!exempt.some((exemption) => exemption.path === '/sso/:org/start'));
});
