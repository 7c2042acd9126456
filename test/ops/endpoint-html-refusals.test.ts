/**
 * The endpoint adapter (transports/http/endpoints.ts) for an endpoint a browser lands on: body kind 'form'
 * hands the handler the parameters as parsed (a repeated one a list, so the handler can refuse it), and with
 * errors 'html' every refusal is the endpoint's own refusalPage: one its handler threw (with the reason), a
 * body the framework could not read (without one) and an unexpected failure (500).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { pino } from 'pino';
import type { Deps } from '../../server/kernel/deps.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { defineModule } from '../../server/modules/manifest.ts';
import { defineEndpoint } from '../../server/ops/endpoint.ts';
import { registerModuleEndpoints } from '../../server/transports/http/endpoints.ts';

async function app() {
  const deps = { storage: { fork: () => ({}) }, logger: pino({ level: 'silent' }) } as unknown as Deps;
  const module = defineModule({
    name: 'html-refusal-test',
    endpoints: [
      defineEndpoint({
        name: 'page_probe',
        methods: ['GET', 'POST'],
        path: '/probe',
        csrf: 'origin',
        body: 'form',
        errors: 'html',
        refusalPage: (refusal) => ({
          title: 'Probe refused',
          heading: `status ${refusal.status}`,
          paragraphs: [refusal.reason ?? `no reason, request ${refusal.requestId}`],
        }),
        async handler(request) {
          if (request.body.fail !== undefined) throw new Error('disk on fire');
          if (Array.isArray(request.body.name)) throw new AppError('invalid_argument', 'name is repeated');
          return { kind: 'page', title: 'Probe', heading: 'ok', paragraphs: [`name ${String(request.body.name)}`] };
        },
      }),
    ],
  });
  const http = Fastify({ logger: false });
  http.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  await registerModuleEndpoints(http, deps, [module]);
  await http.ready();
  return http;
}

test('the query of a GET and the form of a POST reach the handler as parsed, answered as a page', async () => {
  const http = await app();
  const get = await http.inject({ method: 'GET', url: '/probe?name=ada' });
  assert.equal(get.statusCode, 200);
  assert.match(String(get.headers['content-type']), /^text\/html/);
  assert.match(get.body, /name ada/);
  const post = await http.inject({ method: 'POST', url: '/probe', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=lin' });
  assert.match(post.body, /name lin/);
});

test('a refusal the handler throws is the endpoint page with its reason; a repeated parameter is seen as a list', async () => {
  const http = await app();
  const reply = await http.inject({ method: 'GET', url: '/probe?name=a&name=b' });
  assert.equal(reply.statusCode, 400);
  assert.match(reply.body, /Probe refused/);
  assert.match(reply.body, /name is repeated/);
});

test('a body the framework cannot read, or one that is not a form, gets the endpoint page too', async () => {
  const http = await app();
  const malformed = await http.inject({ method: 'POST', url: '/probe', headers: { 'content-type': 'application/json' }, payload: '{bad' });
  assert.equal(malformed.statusCode, 400);
  assert.match(String(malformed.headers['content-type']), /^text\/html/);
  assert.match(malformed.body, /Probe refused/);
  assert.match(malformed.body, /no reason, request/);
  const list = await http.inject({ method: 'POST', url: '/probe', headers: { 'content-type': 'application/json' }, payload: '[1]' });
  assert.equal(list.statusCode, 400);
  assert.match(list.body, /The request must be a form\./);
});

test('an unexpected failure is the endpoint page with status 500, naming no detail', async () => {
  const http = await app();
  const reply = await http.inject({ method: 'GET', url: '/probe?fail=1' });
  assert.equal(reply.statusCode, 500);
  assert.match(reply.body, /status 500/);
  assert.doesNotMatch(reply.body, /disk on fire/);
});
