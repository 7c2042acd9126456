/**
 * The checked-in GraphQL SDL (graphql/portcullis.graphql) must be exactly what the registry generates, as
 * proto/ must, and must be the schema a running server serves: its introspection, rebuilt with graphql-js's
 * buildClientSchema and printed, is the committed SDL below its header. On a drift failure run `npm run gen`
 * (build/gen-api-reference.ts) and commit the result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildClientSchema, buildSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { startServer } from '../support/app.ts';
import { GRAPHQL_SDL_FILE, SDL_HEADER, graphqlSdl } from '../../build/gen-api-reference.ts';

const committed = readFileSync(GRAPHQL_SDL_FILE, 'utf8');

test('graphql/portcullis.graphql matches the registry', () => {
  assert.equal(committed, graphqlSdl(), 'the checked-in GraphQL SDL is stale: run `npm run gen` and commit the result');
});

test('the committed SDL is a valid schema with the root fields of both kinds', () => {
  const schema = buildSchema(committed);
  assert.ok(schema.getQueryType()?.getFields().meta);
  assert.ok(schema.getMutationType()?.getFields()._admin_login);
});

test('a running server serves exactly the committed schema (introspection over POST /graphql)', async () => {
  const server = await startServer();
  try {
    const response = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    });
    assert.equal(response.status, 200);
    const { data, errors } = (await response.json()) as { data: IntrospectionQuery; errors?: unknown };
    assert.equal(errors, undefined);
    assert.ok(committed.startsWith(SDL_HEADER));
    assert.equal(`${printSchema(buildClientSchema(data))}\n`, committed.slice(SDL_HEADER.length));
  } finally {
    await server.close();
  }
});
