/**
 * The refusal pages of /authorize (modules/oauth/authorize-answers.ts authorizeRefusalPage) as the endpoint
 * adapter renders them (transports/http/endpoints.ts): a body that could not be read keeps its 4xx, too many
 * requests is a 429 with Retry-After (RFC 6585 section 4), anything else a 500 naming the request id only.
 * Every one is a page for a person, never a redirect and never cached.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { pino } from 'pino';
import type { Deps } from '../../server/kernel/deps.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { defineModule } from '../../server/modules/manifest.ts';
import { defineEndpoint } from '../../server/ops/endpoint.ts';
import { authorizeRefusalPage } from '../../server/modules/oauth/authorize-answers.ts';
import { registerModuleEndpoints } from '../../server/transports/http/endpoints.ts';

async function app() {
  const deps = { storage: { fork: () => ({}) }, logger: pino({ level: 'silent' }) } as unknown as Deps;
  const module = defineModule({
    name: 'authorize-refusal-test',
    endpoints: [
      defineEndpoint({
        name: 'authorize_probe',
        methods: ['GET', 'POST'],
        path: '/probe',
        csrf: { exempt: 'test' },
        body: 'oauth',
        errors: 'html',
        refusalPage: authorizeRefusalPage,
        async handler(request) {
          if (request.body.busy !== undefined) throw AppError.tooManyRequests('slow down', 7);
          if (request.body.refused !== undefined) throw AppError.invalid('not for a person');
          if (request.body.fail !== undefined) throw new Error('disk on fire');
          return { kind: 'page', title: 'Probe', heading: 'ok', paragraphs: [`client ${String(request.body.client_id)}`] };
        },
      }),
    ],
  });
  const http = Fastify({ logger: false });
  await registerModuleEndpoints(http, deps, [module]);
  await http.ready();
  return http;
}

function assertPage(reply: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, text: RegExp) {
  assert.equal(reply.statusCode, status);
  assert.match(String(reply.headers['content-type']), /^text\/html/);
  assert.equal(reply.headers['cache-control'], 'no-store');
  assert.equal(reply.headers.location, undefined);
  assert.match(reply.body, /Sign-in request not valid/);
  assert.match(reply.body, text);
}

test('too many requests is a 429 page with Retry-After', async () => {
  const http = await app();
  const reply = await http.inject({ method: 'GET', url: '/probe?busy=1' });
  assertPage(reply, 429, /Too many requests: wait a moment and try again\./);
  assert.equal(reply.headers['retry-after'], '7');
});

test('a body that cannot be read keeps its 4xx; text of any content type is read as a form', async () => {
  const http = await app();
  const malformed = await http.inject({ method: 'POST', url: '/probe', headers: { 'content-type': 'application/json' }, payload: '{bad' });
  assertPage(malformed, 400, /The request could not be read\./);
  const text = await http.inject({ method: 'POST', url: '/probe', headers: { 'content-type': 'text/plain' }, payload: 'client_id=app' });
  assert.equal(text.statusCode, 200);
  assert.match(text.body, /client app/);
});

test('an unexpected failure, or a refusal the handler throws, is a 500 page naming the request id only', async () => {
  const http = await app();
  for (const url of ['/probe?fail=1', '/probe?refused=1']) {
    const reply = await http.inject({ method: 'GET', url });
    assertPage(reply, 500, /Something went wrong on the server \(request req-\d+\)\./);
    assert.doesNotMatch(reply.body, /disk on fire|not for a person/);
  }
});
