/**
 * The AuthZEN PDP's limits (docs/authzen.md#authentication, docs/limits.md): not served with FGA off, a 400
 * before any model exists; a caller trying tokens meets the per-IP rate limit of every route (429 with
 * Retry-After before any token is verified); the permission checks of one request are bounded across a
 * GraphQL document's aliased root fields, as check_permissions' are.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startPdpServer, type PdpServer } from './authzen-support.ts';
import { startFgaServer, type FgaTestServer } from './ops-support.ts';
import { MORTY, TODO_MODEL, todoTuples } from './authzen-todo-fixture.ts';

const QUESTION = { subject: { type: 'user', id: MORTY }, action: { name: 'can_read_todos' }, resource: { type: 'todo', id: 'todo-1' } };

describe('AuthZEN PDP limits', () => {
  let limited: FgaTestServer | undefined;
  let pdp: PdpServer | undefined;
  after(async () => {
    await limited?.close();
    await pdp?.close();
  });

  test('with FGA off the PDP is not served: its paths and the metadata document are 404', async () => {
    const off = await startFgaServer([], { fgaStore: null });
    try {
      const metadata = await fetch(`${off.server.baseUrl}/.well-known/authzen-configuration`);
      assert.equal(metadata.status, 404);
      await metadata.arrayBuffer();
      for (const path of ['/access/v1/evaluation', '/access/v1/evaluations', '/access/v1/search/resource']) {
        const res = await fetch(`${off.server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
        assert.equal(res.status, 404, path);
        await res.arrayBuffer();
      }
    } finally {
      await off.close();
    }
  });

  test('guessing tokens meets the per-IP rate limit: 429 with Retry-After', async () => {
    limited = await startFgaServer(['--rate-limit-rps', '3', '--rate-limit-burst', '0']);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${limited.server.baseUrl}/access/v1/evaluation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer guess-${i}` },
        body: JSON.stringify(QUESTION),
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter ??= res.headers.get('retry-after');
      await res.arrayBuffer();
    }
    assert.ok(statuses.filter((status) => status === 401).length <= 4, statuses.join(' '));
    assert.ok(statuses.filter((status) => status === 429).length >= 8, statuses.join(' '));
    assert.match(retryAfter ?? '', /^\d+$/);
  });

  test('without a model a request is 400; aliased evaluations in one GraphQL document share the request\'s 100 permission checks', async () => {
    pdp = await startPdpServer();
    // Before any model is written there is nothing to decide from: a 400 saying so, not a denial.
    const early = await pdp.post('/access/v1/evaluation', QUESTION);
    assert.equal(early.status, 400);
    assert.match(early.body.error_description, /no FGA model has been written yet/);
    await pdp.fga.ok('fga_write_model', { dsl: TODO_MODEL });
    await pdp.fga.ok('fga_write_tuples', { tuples: todoTuples() });
    const params = { ...QUESTION, evaluations: Array.from({ length: 60 }, () => ({})) };
    const res = await fetch(`${pdp.fga.server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(pdp.fga.server.app.deps.config.url!).origin, ...pdp.client.bearer },
      body: JSON.stringify({
        query: `query ($p: AuthzenEvaluationsRequest!) {
          a: authzen_evaluations(params: $p) { evaluations { decision } }
          b: authzen_evaluations(params: $p) { evaluations { decision } }
        }`,
        variables: { p: params },
      }),
    });
    const body = await res.json();
    // The field answers a non-null type, so the refused alias nulls `data` (GraphQL spec 6.4.4).
    assert.equal(body.data, null, JSON.stringify(body).slice(0, 300));
    assert.equal(body.errors?.length, 1, JSON.stringify(body).slice(0, 300));
    assert.equal(body.errors[0].extensions.code, 'INVALID_ARGUMENT');
    assert.match(body.errors[0].message, /at most 100 permission checks per request.*asked for 120/);
    // One alone is within the budget.
    const one = await fetch(`${pdp.fga.server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(pdp.fga.server.app.deps.config.url!).origin, ...pdp.client.bearer },
      body: JSON.stringify({ query: 'query ($p: AuthzenEvaluationsRequest!) { a: authzen_evaluations(params: $p) { evaluations { decision } } }', variables: { p: params } }),
    });
    const answered = await one.json();
    assert.equal(answered.errors, undefined, JSON.stringify(answered.errors));
    assert.equal(answered.data.a.evaluations.length, 60);
    assert.ok(answered.data.a.evaluations.every((e: { decision: boolean }) => e.decision));
  });
});
