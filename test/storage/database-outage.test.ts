/**
 * A PostgreSQL outage under a running server (docs/deployment.md#when-the-database-is-down): while the
 * database is stopped, every protocol answers its own "retry later" within a bounded time instead of a 500
 * or a hang, REST 503 `unavailable` with Retry-After, GraphQL `UNAVAILABLE`, gRPC UNAVAILABLE (14), the
 * OAuth token endpoint 503 `temporarily_unavailable` (RFC 6749 section 4.1.2.1), SCIM 503 in the RFC 7644
 * section 3.12 shape, an HTML endpoint and an emailed link a 503 page, /readyz and /healthz 503. When the database is back, the same
 * requests succeed without restarting the server: the pool opens new connections.
 *
 * Each refused request is logged once, as a warning without the error object.
 *
 * The database is a cluster of the test's own (test/support/throwaway-postgres.ts), stopped with pg_ctl's
 * fast mode (sessions end with 57P01, then the port closes) and, in a second round, its immediate mode.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, CLIENT_SECRET, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';
import { startThrowawayPostgres, type StopMode, type ThrowawayPostgres } from '../support/throwaway-postgres.ts';
import { registry } from '../../server/ops/registry.ts';
import { Writable } from 'node:stream';
import pino from 'pino';

/** The longest a request may take to be refused while the database is down (pool connect/acquire timeout is 2 s). */
const BOUND_MS = 3_000;

const createUser = registry.all.find((op) => op.name === 'create_user')!;

let pg: ThrowawayPostgres;
let server: TestServer;
let grpc: GrpcTestClient;
let created = 0;
/** The server's log lines, parsed. */
const logLines: Array<Record<string, unknown>> = [];
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

const origin = () => 'http://127.0.0.1:8080';
const adminHeaders = () => ({ 'x-service-admin-secret': ADMIN_SECRET, origin: origin(), 'content-type': 'application/json' });
const newEmail = (label: string) => `outage-${label}-${++created}@example.com`;

/** Runs `work` and answers its result with how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

function restCreateUser(label: string): Promise<Response> {
  return fetch(`${server.baseUrl}/v1/admin/create_user`, {
    method: 'POST',
    headers: adminHeaders(),
    body: JSON.stringify({ email: newEmail(label), password: 'Initial-pass-42' }),
  });
}

function graphqlCreateUser(label: string): Promise<Response> {
  return fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: adminHeaders(),
    body: JSON.stringify({
      query: `mutation ($params: CreateUserRequest!) { ${createUser.graphqlName}(params: $params) { message } }`,
      variables: { params: { email: newEmail(label), password: 'Initial-pass-42' } },
    }),
  });
}

function grpcCreateUser(label: string) {
  return grpc.call(createUser.grpcService, createUser.grpcMethod!, { email: newEmail(label), password: 'Initial-pass-42' }, { 'x-service-admin-secret': ADMIN_SECRET });
}

/** An authorization-code grant: the code is looked up in the database (a refresh token is checked as a JWT first). */
function tokenRequest(): Promise<Response> {
  return fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: 'no-such-code',
      code_verifier: 'v'.repeat(43),
      redirect_uri: 'http://127.0.0.1:8080/callback',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    }),
  });
}

/** A token of the issued shape (scim_ and 43 characters), so the server looks its digest up. */
function scimRequest(): Promise<Response> {
  return fetch(`${server.baseUrl}/scim/v2/Users`, { headers: { authorization: `Bearer scim_${'A'.repeat(43)}`, accept: 'application/scim+json' } });
}

/** A client id the server must look up among the registered clients (the instance client is known from its flags). */
function authorizePage(): Promise<Response> {
  const query = new URLSearchParams({ client_id: 'a-registered-client-perhaps', response_type: 'code', redirect_uri: 'http://127.0.0.1:8080/callback', scope: 'openid', state: 's' });
  return fetch(`${server.baseUrl}/authorize?${query}`, { redirect: 'manual' });
}

async function assertServing(): Promise<void> {
  const rest = await restCreateUser('rest');
  assert.equal(rest.status, 200, await rest.text());
  const graphql = await (await graphqlCreateUser('graphql')).json();
  assert.equal(graphql.errors, undefined, JSON.stringify(graphql.errors));
  await grpcCreateUser('grpc');
  const token = await tokenRequest();
  assert.equal(token.status, 400, 'an unknown code is invalid_grant once the database answers');
  assert.equal((await token.json()).error, 'invalid_grant');
  assert.equal((await scimRequest()).status, 401, 'an unknown SCIM token is refused once the database answers');
  assert.equal((await authorizePage()).status, 400, 'an unknown client gets the refusal page, not the outage page');
  const link = await fetch(`${server.baseUrl}/verify_email?token=${'t'.repeat(43)}`, { redirect: 'manual' });
  assert.equal(link.status, 400, 'an unknown emailed link is refused once the database answers');
  assert.match(await link.text(), /ask for a new one/i);
  assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
  assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
}

async function assertRefusedWithinBound(mode: StopMode): Promise<number> {
  const rest = await timed(() => restCreateUser('rest-down'));
  assert.equal(rest.value.status, 503, `${mode}: REST status`);
  assert.equal(rest.value.headers.get('retry-after'), '5');
  const restBody = await rest.value.json();
  assert.equal(restBody.code, 'unavailable');
  assert.match(restBody.message, /temporarily unavailable, retry later \(request id /);
  assert.ok(rest.ms <= BOUND_MS, `${mode}: REST took ${rest.ms} ms`);

  const graphql = await timed(() => graphqlCreateUser('graphql-down'));
  assert.equal(graphql.value.status, 200, 'GraphQL answers an operation failure with 200, as for any other kind');
  const graphqlBody = await graphql.value.json();
  assert.equal(graphqlBody.errors?.[0]?.extensions?.code, 'UNAVAILABLE', JSON.stringify(graphqlBody));
  assert.equal(graphqlBody.errors[0].extensions.retryAfter, 5);
  assert.ok(graphql.ms <= BOUND_MS, `${mode}: GraphQL took ${graphql.ms} ms`);

  const grpcStarted = performance.now();
  const failure = await refusal(grpcCreateUser('grpc-down'));
  const grpcMs = performance.now() - grpcStarted;
  assert.equal(failure.code, 14, `${mode}: gRPC status UNAVAILABLE, got ${failure.code} ${failure.details}`);
  assert.deepEqual(failure.trailers.get('retry-after'), ['5']);
  assert.ok(grpcMs <= BOUND_MS, `${mode}: gRPC took ${grpcMs} ms`);

  const token = await timed(() => tokenRequest());
  assert.equal(token.value.status, 503, `${mode}: token endpoint status ${await token.value.clone().text()}`);
  assert.equal(token.value.headers.get('retry-after'), '5');
  assert.equal(token.value.headers.get('cache-control'), 'no-store');
  assert.equal((await token.value.json()).error, 'temporarily_unavailable');
  assert.ok(token.ms <= BOUND_MS, `${mode}: token endpoint took ${token.ms} ms`);

  const scim = await timed(() => scimRequest());
  assert.equal(scim.value.status, 503, `${mode}: SCIM status`);
  assert.match(scim.value.headers.get('content-type') ?? '', /application\/scim\+json/);
  const scimBody = await scim.value.json();
  assert.deepEqual(scimBody.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
  assert.equal(String(scimBody.status), '503');
  assert.equal(scim.value.headers.get('retry-after'), '5');
  assert.ok(scim.ms <= BOUND_MS, `${mode}: SCIM took ${scim.ms} ms`);

  const page = await timed(() => authorizePage());
  assert.equal(page.value.status, 503, `${mode}: /authorize status`);
  assert.match(page.value.headers.get('content-type') ?? '', /text\/html/);
  assert.equal(page.value.headers.get('retry-after'), '5');
  assert.match(await page.value.text(), /temporarily unavailable/i);
  assert.ok(page.ms <= BOUND_MS, `${mode}: /authorize took ${page.ms} ms`);

  const link = await timed(() => fetch(`${server.baseUrl}/verify_email?token=${'t'.repeat(43)}`, { redirect: 'manual' }));
  assert.equal(link.value.status, 503, `${mode}: emailed link status`);
  assert.equal(link.value.headers.get('retry-after'), '5');
  const linkPage = await link.value.text();
  assert.match(linkPage, /temporarily unavailable/i);
  assert.doesNotMatch(linkPage, /ask for a new one/i, 'a good link is not called used up while the database is down');
  assert.ok(link.ms <= BOUND_MS, `${mode}: /verify_email took ${link.ms} ms`);

  const ready = await timed(() => fetch(`${server.baseUrl}/readyz`));
  assert.equal(ready.value.status, 503);
  assert.deepEqual(await ready.value.json(), { status: 'not ready' });
  assert.ok(ready.ms <= BOUND_MS, `${mode}: /readyz took ${ready.ms} ms`);
  // docs/api-overview.md#http-endpoints-outside-v1: liveness also answers 503 while the database does not.
  const live = await fetch(`${server.baseUrl}/healthz`);
  assert.equal(live.status, 503);
  assert.deepEqual(await live.json(), { status: 'unhealthy' });
  return Math.max(rest.ms, graphql.ms, grpcMs, token.ms, scim.ms, page.ms, link.ms, ready.ms);
}

describe('a PostgreSQL outage under a running server', () => {
  before(async () => {
    pg = await startThrowawayPostgres();
    server = await startServer(pg.flags, { logger: pino({ level: 'warn' }, logSink) });
    grpc = createGrpcClient(server.ports.grpc!);
  });

  after(async () => {
    grpc?.close();
    await server?.close();
    await pg?.destroy();
  });

  test('before the outage every protocol is served', async () => {
    await assertServing();
  });

  for (const mode of ['fast', 'immediate'] as const) {
    test(`stopped (${mode}): every protocol answers "retry later" within ${BOUND_MS} ms, and /readyz 503`, async (t) => {
      await pg.stop(mode);
      const logged = logLines.length;
      const first = await assertRefusedWithinBound(mode);
      // A second round meets no pooled connection at all: refused connects, not lost ones.
      const second = await assertRefusedWithinBound(mode);
      t.diagnostic(`slowest refusal: ${Math.round(first)} ms in the first round, ${Math.round(second)} ms in the second`);
      // One warning per refused request (seven a round; /readyz logs nothing), with the driver's reason and no
      // error object; none of the request paths' error lines ("failed unexpectedly").
      const lines = logLines.slice(logged);
      const warnings = lines.filter((line) => String(line.msg).startsWith('unavailable:'));
      assert.equal(warnings.length, 14, JSON.stringify(lines));
      for (const line of warnings) {
        assert.equal(line.level, 40);
        assert.match(String(line.reason), /ECONNREFUSED|terminat|Connection/);
        assert.equal(line.err, undefined);
      }
      assert.deepEqual(lines.filter((line) => /unexpected|request failed/i.test(String(line.msg))), []);
    });

    test(`restarted after a ${mode} stop: served again without restarting the server`, async () => {
      await pg.start();
      await assertServing();
    });
  }
});
