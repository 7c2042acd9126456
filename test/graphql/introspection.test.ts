/**
 * --enable-graphql-introspection (docs/configuration.md: "false prevents schema discovery"); default on.
 * The playground is not served (GraphiQL in mercurius loads its code from the internet), so GET answers 405.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { onlyError, postGraphql } from './client.ts';

const SCHEMA_QUERY = '{ __schema { queryType { name } mutationType { name } } }';
const TYPE_QUERY = '{ __type(name: "AdminLoginRequest") { kind inputFields { name } } }';

describe('GraphQL introspection', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const server of servers) await server.close();
  });
  async function start(flags: string[]): Promise<TestServer> {
    const server = await startServer(flags);
    servers.push(server);
    return server;
  }

  test('is allowed by default', async () => {
    const server = await start([]);
    const schema = await postGraphql(server, SCHEMA_QUERY);
    assert.deepEqual(schema.body, { data: { __schema: { queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } } } });
    const type = await postGraphql(server, TYPE_QUERY);
    assert.deepEqual(type.body.data?.__type, { kind: 'INPUT_OBJECT', inputFields: [{ name: 'admin_secret' }] });
  });

  test('--enable-graphql-introspection=false refuses __schema and __type, keeps __typename', async () => {
    const server = await start(['--enable-graphql-introspection=false']);
    for (const query of [SCHEMA_QUERY, TYPE_QUERY, `{ meta { version } ${SCHEMA_QUERY.slice(1)}`]) {
      const reply = await postGraphql(server, query);
      assert.equal(reply.status, 400);
      assert.equal(reply.body.data, undefined, 'nothing runs when part of the document is refused');
      const error = onlyError(reply);
      assert.match(error.message, /introspection is disabled/);
      assert.equal(error.code, 'PERMISSION_DENIED');
    }
    const ordinary = await postGraphql(server, '{ __typename meta { __typename version } }');
    assert.equal(ordinary.body.errors, undefined);
    assert.equal(ordinary.body.data?.__typename, 'Query');
    assert.equal((ordinary.body.data?.meta as { __typename: string }).__typename, 'Meta');
  });

  test('no playground page is served', async () => {
    const server = await start([]);
    const res = await fetch(`${server.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    assert.equal(res.status, 405);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal((await fetch(`${server.baseUrl}/graphiql`)).status, 404);
  });
});
