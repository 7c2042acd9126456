/**
 * GraphQL over real HTTP (POST /graphql): results equal to REST, real Set-Cookie for the admin session,
 * error codes in `extensions.code`, the deprecated mutations of docs/errors.md#messages-worth-knowing, and JSON
 * replies for every malformed request (docs/sdk-compatibility.md#graphql-requests).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { graphqlRequestFor, selectionFor } from '../../server/transports/graphql/selection.ts';
import { buildGraphqlSchema } from '../../server/transports/graphql/schema.ts';
import { Meta, AdminMeta } from '../../server/modules/meta/meta.ts';
import { onlyError, postGraphql } from './client.ts';

const LOGIN = 'mutation($params: AdminLoginRequest!) { _admin_login(params: $params) { message } }';

function adminCookiePair(headers: Headers): string {
  const cookie = headers.getSetCookie().find((c) => c.startsWith('service-admin='));
  assert.ok(cookie, 'expected a service-admin Set-Cookie');
  assert.match(cookie, /HttpOnly/);
  return cookie.split(';')[0]!;
}

describe('GraphQL over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('{ meta } answers the same object as GET /v1/meta', async () => {
    const reply = await postGraphql(server, `{ meta ${selectionFor(Meta)} }`);
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(reply.body.errors, undefined);
    const rest = await (await fetch(`${server.baseUrl}/v1/meta`)).json();
    assert.deepEqual(reply.body.data?.meta, rest);
  });

  test('_admin_login sets a real service-admin cookie that opens _admin_session', async () => {
    const login = await postGraphql(server, LOGIN, { params: { admin_secret: ADMIN_SECRET } });
    assert.equal(login.status, 200);
    assert.deepEqual(login.body, { data: { _admin_login: { message: 'admin logged in successfully' } } });
    const pair = adminCookiePair(login.headers);
    const session = await postGraphql(server, '{ _admin_session { message } }', undefined, { cookie: pair });
    assert.equal(session.body.errors, undefined, JSON.stringify(session.body));
    assert.ok((session.body.data?._admin_session as { message: string }).message);
    const renewed = adminCookiePair(session.headers);
    assert.notEqual(renewed, pair);
    const logout = await postGraphql(server, 'mutation { _admin_logout { message } }', undefined, { cookie: renewed });
    assert.equal(logout.body.errors, undefined);
    assert.match(logout.headers.getSetCookie().find((c) => c.startsWith('service-admin=')) ?? '', /Max-Age=0/);
    const after = await postGraphql(server, '{ _admin_session { message } }', undefined, { cookie: renewed });
    assert.equal(onlyError(after).code, 'UNAUTHENTICATED');
  });

  test('a wrong admin secret is UNAUTHENTICATED and sets no cookie', async () => {
    const reply = await postGraphql(server, LOGIN, { params: { admin_secret: 'wrong' } });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.data, null);
    assert.deepEqual(reply.body.errors?.[0]?.path, ['_admin_login']);
    assert.deepEqual(onlyError(reply), { message: 'invalid admin secret', code: 'UNAUTHENTICATED' });
    assert.equal(reply.headers.getSetCookie().length, 0);
  });

  test('_admin_meta needs credentials; the x-service-admin-secret header opens it', async () => {
    const query = `{ _admin_meta ${selectionFor(AdminMeta)} }`;
    const anonymous = await postGraphql(server, query);
    assert.equal(onlyError(anonymous).code, 'UNAUTHENTICATED');
    const wrong = await postGraphql(server, query, undefined, { 'x-service-admin-secret': 'nope' });
    assert.equal(onlyError(wrong).code, 'UNAUTHENTICATED');
    const admin = await postGraphql(server, query, undefined, { 'x-service-admin-secret': ADMIN_SECRET });
    assert.equal(admin.body.errors, undefined);
    const rest = await (await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { 'x-service-admin-secret': ADMIN_SECRET } })).json();
    assert.deepEqual(admin.body.data?._admin_meta, rest);
    assert.deepEqual((admin.body.data?._admin_meta as { roles: string[] }).roles, ['user']);
  });

  test('the deprecated mutations fail with the messages of docs/errors.md#messages-worth-knowing', async () => {
    const cases = [
      ['_update_env', 'deprecated. please configure env via cli args'],
      ['_admin_signup', 'deprecated. please configure admin secret via cli args'],
      ['_generate_jwt_keys', 'deprecated. please configure jwt keys via cli args'],
    ];
    for (const [field, message] of cases) {
      for (const call of [`mutation { ${field} { message } }`, `mutation { ${field}(params: {admin_secret: "x", ACCESS_TOKEN_EXPIRY_TIME: "1h"}) { message } }`]) {
        const reply = await postGraphql(server, call);
        assert.deepEqual(onlyError(reply), { message, code: 'FAILED_PRECONDITION' }, call);
        assert.equal(reply.body.data, null);
      }
    }
  });

  test('graphqlRequestFor runs an operation over the wire', async () => {
    const schema = buildGraphqlSchema(server.app.registry.all);
    const op = server.app.registry.byName('admin_meta')!;
    const { query, variables } = graphqlRequestFor(schema, op);
    const reply = await postGraphql(server, query, variables, { 'x-service-admin-secret': ADMIN_SECRET });
    assert.equal(reply.body.errors, undefined);
    assert.deepEqual(Object.keys(reply.body.data?._admin_meta as object).sort(), Object.keys(op.output.properties).sort());
    const login = server.app.registry.byName('admin_login')!;
    const call = graphqlRequestFor(schema, login, { admin_secret: ADMIN_SECRET });
    assert.deepEqual((await postGraphql(server, call.query, call.variables)).body.data, { _admin_login: { message: 'admin logged in successfully' } });
  });

  test('input failing the operation schema is INVALID_ARGUMENT naming the field', async () => {
    const reply = await postGraphql(server, LOGIN, { params: {} });
    assert.equal(onlyError(reply).code, 'INVALID_ARGUMENT');
    assert.match(onlyError(reply).message, /admin_secret/);
  });
});

describe('malformed GraphQL requests answer JSON', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const raw = (body: string, contentType = 'application/json', method = 'POST') =>
    fetch(`${server.baseUrl}/graphql`, { method, headers: { 'content-type': contentType, origin: server.baseUrl }, body });

  async function expectJsonError(res: Response, status: number, message: RegExp, code = 'INVALID_ARGUMENT'): Promise<void> {
    assert.equal(res.status, status);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = await res.json();
    assert.equal(body.data, undefined, 'a refused request carries no data key');
    assert.ok(Array.isArray(body.errors) && body.errors.length > 0, JSON.stringify(body));
    assert.match(body.errors[0].message, message);
    assert.equal(body.errors[0].extensions.code, code);
  }

  test('syntax errors, unknown fields and missing variables', async () => {
    await expectJsonError(await raw(JSON.stringify({ query: '{ meta { version ' })), 400, /Syntax Error/);
    await expectJsonError(await raw(JSON.stringify({ query: '{ nope }' })), 400, /Cannot query field "nope"/);
    await expectJsonError(await raw(JSON.stringify({ query: LOGIN })), 400, /\$params/);
    await expectJsonError(await raw(JSON.stringify({ query: LOGIN, variables: { params: { admin_secret: 5 } } })), 400, /String cannot represent/);
  });

  test('bad JSON, wrong body shape, wrong content type', async () => {
    await expectJsonError(await raw('{"query": '), 400, /JSON/);
    await expectJsonError(await raw('[1, 2]'), 400, /JSON object/);
    await expectJsonError(await raw(JSON.stringify({ query: 42 })), 400, /query must be a non-empty string/);
    await expectJsonError(await raw(JSON.stringify({ query: '{ meta { version } }', variables: [1] })), 400, /variables/);
    await expectJsonError(await raw('query=%7Bmeta%7Bversion%7D%7D', 'application/x-www-form-urlencoded'), 415, /application\/json/);
    await expectJsonError(await raw('{ meta { version } }', 'text/plain'), 415, /application\/json/);
  });

  test('GET is refused with 405 and an Allow header', async () => {
    const res = await fetch(`${server.baseUrl}/graphql?query=%7Bmeta%7Bversion%7D%7D`);
    assert.equal(res.headers.get('allow'), 'POST');
    await expectJsonError(res, 405, /use POST/, 'METHOD_NOT_ALLOWED');
  });

  test('aliases cannot multiply one operation past the root-field cap', async () => {
    const aliases = Array.from({ length: 21 }, (_, i) => `a${i}: _admin_login(params: {admin_secret: "x"}) { message }`);
    await expectJsonError(await raw(JSON.stringify({ query: `mutation { ${aliases.join(' ')} }` })), 400, /at most 20 root fields/);
  });

  test('a POST without Origin is refused by the CSRF rule, still as JSON', async () => {
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ meta { version } }' }),
    });
    assert.equal(res.status, 403);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(JSON.stringify(await res.json()), /CSRF/);
  });
});
