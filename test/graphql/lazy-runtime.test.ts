/**
 * The GraphQL stack loads with the first /graphql request (transports/graphql/route.ts, runtime.ts) rather
 * than at start: the very first requests of a fresh server, arriving together, answer exactly as later ones
 * do, and a malformed first request still answers in GraphQL shape. test/http/lazy-start.test.ts checks
 * that graphql-js is not loaded at start.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../support/app.ts';
import { postGraphql } from './client.ts';

describe('GraphQL loaded on first use', () => {
  test('concurrent first requests of a fresh server all answer as usual', async () => {
    const server = await startServer();
    try {
      const [first, second, invalid, get] = await Promise.all([
        postGraphql(server, '{ meta { version } }'),
        postGraphql(server, '{ meta { version } }'),
        postGraphql(server, '{ meta { nope } }'),
        fetch(`${server.baseUrl}/graphql`, { method: 'GET', headers: { origin: server.baseUrl } }),
      ]);
      for (const reply of [first, second]) {
        assert.equal(reply.status, 200);
        assert.equal(reply.body.errors, undefined, JSON.stringify(reply.body));
        assert.equal(typeof (reply.body.data?.meta as { version?: unknown }).version, 'string');
      }
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.data, undefined);
      assert.match(invalid.body.errors?.[0]?.message ?? '', /Cannot query field "nope"/);
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      assert.equal(((await get.json()) as { errors: unknown[] }).errors.length, 1);
    } finally {
      await server.close();
    }
  });

  test('malformed JSON as the first request answers a GraphQL-shaped 400', async () => {
    const server = await startServer();
    try {
      const res = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: '{"query": ',
      });
      assert.equal(res.status, 400);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await res.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
      assert.equal(body.data, undefined);
      assert.equal(body.errors[0]!.extensions.code, 'INVALID_ARGUMENT');
    } finally {
      await server.close();
    }
  });
});
