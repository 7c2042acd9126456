/**
 * The hostile inputs that answered 500/INTERNAL or stalled the server, one by one over the protocols whose
 * path differs: 10,000-deep JSON on every REST POST route, NUL and lone surrogates in fields, 10,000-deep
 * GraphQL selections and list literals, 10,000-deep gRPC Structs, and a 16 KB invalid FGA model (small
 * reply, /healthz answering meanwhile, the gRPC reply arriving). Every refusal is invalid_argument in the
 * protocol's own shape.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { status } from '@grpc/grpc-js';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../support/admin-client.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';
import { postGraphql, onlyError } from '../graphql/client.ts';
import { registry } from '../../server/ops/registry.ts';
import { callRaw, deepStruct, lengthDelimited } from './grpc-raw.ts';
import { deepJson, postText, restPath, watchHealth } from './support.ts';


/** About 16 KB of rewrites nested 16 deep over undefined types: seconds of parsing and a 100 KB error before. */
function invalidModel(): string {
  let dsl = 'model\n  schema 1.1\ntype user\ntype doc\n  relations\n';
  for (let i = 0; dsl.length < 16_000; i += 1) {
    dsl += `    define r${i}: [ghost${i}] or ${'('.repeat(16)}r${i}${')'.repeat(16)}\n`;
  }
  return dsl;
}

describe('hostile input regressions', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer();
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc.close();
    await server.close();
  });

  test('JSON nested 10,000 deep is a 400 invalid_argument on every REST POST route', async () => {
    const posts = registry.all.filter((op) => restPath(op).method === 'POST');
    assert.ok(posts.length >= 30);
    for (const op of posts) {
      for (const body of [`{"x":${deepJson(10_000)}}`, deepJson(10_000, 'object')]) {
        const reply = await postText(server, restPath(op).path, body, ADMIN);
        assert.equal(reply.status, 400, `${op.name}: ${reply.text.slice(0, 200)}`);
        assert.equal(reply.body.code, 'invalid_argument');
      }
    }
  });

  test('a Map value nested past the input bound names the field, on REST and GraphQL', async () => {
    const user = await postText(server, '/v1/admin/update_user', `{"id":"u1","app_data":${deepJson(40, 'object')}}`, ADMIN);
    assert.equal(user.status, 400);
    assert.match(user.body.message, /^app_data\.a\.a.*nests deeper than 32 levels/);
    const gql = await postText(server, '/graphql', `{"query":"mutation($p: UpdateUserRequest!) { _update_user(params: $p) { id } }","variables":{"p":{"id":"u1","app_data":${deepJson(40, 'object')}}}}`, ADMIN);
    assert.equal(gql.status, 200);
    assert.equal(gql.body.errors[0].extensions.code, 'INVALID_ARGUMENT');
  });

  test('NUL, other control characters and lone surrogates are refused naming the field, on every protocol', async () => {
    for (const [email, problem] of [
      ['a\u0000b@example.com', /email: must not contain control characters \(found U\+0000\)/],
      ['a\u001bb@example.com', /email: must not contain control characters \(found U\+001B\)/],
      ['a\ud800b@example.com', /email: is not well-formed Unicode/],
      ['a\nb@example.com', /email: must be one line/],
    ] as const) {
      const input = { email, password: 'Correct-Horse-9' };
      const rest = await postText(server, '/v1/login', JSON.stringify(input));
      assert.equal(rest.status, 400, rest.text);
      assert.equal(rest.body.code, 'invalid_argument');
      assert.match(rest.body.message, problem);
      const gql = await postGraphql(server, 'mutation($p: LoginRequest!) { login(params: $p) { message } }', { p: input });
      assert.deepEqual([gql.status, onlyError(gql).code], [200, 'INVALID_ARGUMENT']);
      assert.match(onlyError(gql).message, problem);
      if (!email.includes('\ud800')) {
        // protobufjs writes a lone surrogate as U+FFFD, so gRPC cannot carry one; the others arrive as sent.
        const failure = await refusal(grpc.call('PublicService', 'Login', input));
        assert.equal(failure.code, status.INVALID_ARGUMENT);
        assert.match(failure.details, problem);
      }
    }
  });

  test('a multi-line field keeps its line breaks; a __proto__ key is refused', async () => {
    const model = await postText(server, '/v1/admin/fga/model', JSON.stringify({ dsl: 'model\n  schema 1.1\ntype user\n' }), ADMIN);
    assert.equal(model.status, 200, model.text);
    const proto = await postText(server, '/v1/admin/update_user', '{"id":"u1","app_data":{"__proto__":{"admin":true}}}', ADMIN);
    assert.equal(proto.status, 400);
    assert.equal(proto.body.code, 'invalid_argument');
  });

  test('a GraphQL selection and a list literal nested 10,000 deep answer 400 INVALID_ARGUMENT as JSON', async () => {
    const selection = `query { meta ${'{ a '.repeat(10_000)}${'}'.repeat(10_001)}`;
    const literal = `mutation { login(params: {email: ${'['.repeat(10_000)}${']'.repeat(10_000)}}) { message } }`;
    for (const query of [selection, literal]) {
      const reply = await postText(server, '/graphql', JSON.stringify({ query }));
      assert.equal(reply.status, 400, reply.text.slice(0, 200));
      assert.equal(reply.body.errors[0].extensions.code, 'INVALID_ARGUMENT');
      assert.match(reply.body.errors[0].message, /nests deeper than 32/);
    }
  });

  test('a gRPC Struct nested 10,000 deep and undecodable bytes are INVALID_ARGUMENT', async () => {
    const deep = Buffer.concat([lengthDelimited(1, Buffer.from('u1')), lengthDelimited(15, deepStruct(10_000))]);
    const outcome = await callRaw(server.ports.grpc!, 'AdminService', 'UpdateUser', deep, ADMIN);
    assert.equal(outcome.code, status.INVALID_ARGUMENT, outcome.details);
    const garbage = await callRaw(server.ports.grpc!, 'PublicService', 'Login', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
    assert.equal(garbage.code, status.INVALID_ARGUMENT, garbage.details);
  });

  test('a 16 KB invalid FGA model answers a small error quickly while /healthz keeps answering', async () => {
    const dsl = invalidModel();
    const health = watchHealth(server, 20);
    const started = performance.now();
    const rest = await postText(server, '/v1/admin/fga/model', JSON.stringify({ dsl }), ADMIN);
    const restMs = performance.now() - started;
    const failure = await refusal(grpc.call('AdminService', 'FgaWriteModel', { dsl }, ADMIN));
    const { slowest } = await health.stop();
    assert.equal(rest.status, 400);
    assert.equal(rest.body.code, 'invalid_argument');
    assert.match(rest.body.message, /problems: .*; and \d+ more$/);
    assert.ok(rest.text.length < 4096, `reply of ${rest.text.length} bytes`);
    assert.ok(restMs < 1000, `the write took ${Math.round(restMs)} ms`);
    assert.ok(slowest < 1000, `/healthz took ${Math.round(slowest)} ms`);
    assert.equal(failure.code, status.INVALID_ARGUMENT);
    assert.ok(failure.details.length <= 1024);
  });

  test('parentheses nested past the bound are refused before parsing', async () => {
    const dsl = `model\n  schema 1.1\ntype user\ntype doc\n  relations\n    define r: [user] or ${'('.repeat(8000)}r${')'.repeat(8000)}\n`;
    const started = performance.now();
    const reply = await postText(server, '/v1/admin/fga/model', JSON.stringify({ dsl }), ADMIN);
    assert.equal(reply.status, 400);
    assert.match(reply.body.message, /parentheses nest deeper than 16 levels/);
    assert.ok(performance.now() - started < 1000);
  });
});
