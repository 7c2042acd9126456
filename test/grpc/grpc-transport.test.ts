/**
 * The gRPC transport over real loopback against the real registry: same answers as REST, admin
 * credentials as metadata (docs/api-overview.md#authentication), set-cookie metadata, and status codes per AppError kind.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { status } from '@grpc/grpc-js';
import { ADMIN_SECRET, startServer, type TestServer } from '../support/app.ts';
import { cookiesFrom, createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';

describe('gRPC transport', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;

  before(async () => {
    server = await startServer();
    assert.ok(server.ports.grpc, 'gRPC is bound');
    grpc = createGrpcClient(server.ports.grpc);
  });

  after(async () => {
    grpc.close();
    await server.close();
  });

  test('Meta equals GET /v1/meta', async () => {
    const rest = await fetch(`${server.baseUrl}/v1/meta`);
    assert.equal(rest.status, 200);
    const { response } = await grpc.call('PublicService', 'Meta');
    assert.deepEqual(response, await rest.json());
    assert.equal(response.client_id, 'test-client');
    assert.equal(response.is_google_login_enabled, false, 'false booleans survive proto3 defaults');
  });

  test('AdminLogin sets the service-admin cookie, which opens AdminSession', async () => {
    const login = await grpc.call('AdminService', 'AdminLogin', { admin_secret: ADMIN_SECRET });
    assert.deepEqual(login.response, { message: 'admin logged in successfully' });
    const setCookies = login.metadata.get('set-cookie').map(String);
    assert.equal(setCookies.length, 1);
    assert.match(setCookies[0]!, /^service-admin=[^;]+; .*HttpOnly.*SameSite=Strict/);

    const session = await grpc.call('AdminService', 'AdminSession', {}, { cookie: cookiesFrom(login.metadata) });
    assert.deepEqual(session.response, { message: 'admin session refreshed successfully' });
    // The session slides: a fresh service-admin cookie replaces the one presented.
    const renewed = session.metadata.get('set-cookie').map(String);
    assert.equal(renewed.length, 1);
    assert.match(renewed[0]!, /^service-admin=[^;]+; .*Max-Age=3600/);
    assert.notEqual(cookiesFrom(session.metadata), cookiesFrom(login.metadata));
  });

  test('AdminLogin with a wrong secret is UNAUTHENTICATED and sets no cookie', async () => {
    const failure = await refusal(grpc.call('AdminService', 'AdminLogin', { admin_secret: 'wrong' }));
    assert.equal(failure.code, status.UNAUTHENTICATED);
    assert.equal(failure.details, 'invalid admin secret');
    assert.deepEqual(failure.metadata.get('set-cookie'), []);
  });

  test('an absent required admin_secret is INVALID_ARGUMENT, as over REST and GraphQL', async () => {
    const failure = await refusal(grpc.call('AdminService', 'AdminLogin', {}));
    assert.equal(failure.code, status.INVALID_ARGUMENT);
    assert.match(failure.details, /admin_secret/);
    const empty = await refusal(grpc.call('AdminService', 'AdminLogin', { admin_secret: '' }));
    assert.equal(empty.code, status.UNAUTHENTICATED);
  });

  test('AdminMeta needs admin credentials; x-service-admin-secret metadata works', async () => {
    const anonymous = await refusal(grpc.call('AdminService', 'AdminMeta'));
    assert.equal(anonymous.code, status.UNAUTHENTICATED);
    assert.match(anonymous.details, /super-admin credentials required/);

    const wrong = await refusal(grpc.call('AdminService', 'AdminMeta', {}, { 'x-service-admin-secret': 'nope' }));
    assert.equal(wrong.code, status.UNAUTHENTICATED);

    const { response } = await grpc.call('AdminService', 'AdminMeta', {}, { 'x-service-admin-secret': ADMIN_SECRET });
    const rest = await fetch(`${server.baseUrl}/v1/admin/meta`, { headers: { 'x-service-admin-secret': ADMIN_SECRET } });
    assert.deepEqual(response, await rest.json());
    assert.ok(Array.isArray(response.roles));
  });

  test('GraphQL-only and unknown methods answer UNIMPLEMENTED', async () => {
    for (const method of ['AdminSignup', 'UpdateEnv', 'GenerateJwtKeys', 'NoSuchMethod']) {
      const failure = await refusal(grpc.call('AdminService', method, {}, { 'x-service-admin-secret': ADMIN_SECRET }));
      assert.equal(failure.code, status.UNIMPLEMENTED, method);
    }
    const unknownService = await refusal(grpc.call('NoSuchService', 'Meta'));
    assert.equal(unknownService.code, status.UNIMPLEMENTED);
  });
});

describe('gRPC disabled', () => {
  test('--enable-grpc=false binds no gRPC port', async () => {
    const server = await startServer(['--enable-grpc=false']);
    try {
      assert.equal(server.ports.grpc, undefined);
    } finally {
      await server.close();
    }
  });
});
