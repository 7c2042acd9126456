/**
 * The `user` auth kind wired into the server (docs/api-overview.md#authentication): a bearer access
 * token or either session cookie authenticates over REST, GraphQL and gRPC; an ID token, a forged token or
 * no credential is refused; logout and revocation take effect on the next call. A fixture registry gives
 * the server two user operations, since the account operations are built elsewhere.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { defineOperation } from '../../server/ops/define.ts';
import { createRegistry } from '../../server/ops/registry.ts';
import { MessageResponse, NoInput, s } from '../../server/ops/schema.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { endSession, revokeAllForUser } from '../../server/modules/tokens/index.ts';
import { User } from '../../server/modules/users/user.entity.ts';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { createUser, login } from '../tokens/support.ts';

const WhoAmI = s.object('WhoAmI', { user_id: s.string(), session_id: s.string(), roles: s.list(s.string()) });

const whoamiOp = defineOperation({
  name: 'whoami',
  admin: false,
  kind: 'query',
  description: 'The authenticated caller',
  input: NoInput,
  output: WhoAmI,
  auth: 'user',
  handler: async (_input, ctx) => {
    if (ctx.caller.kind !== 'user') throw AppError.unauthenticated();
    return { user_id: ctx.caller.userId, session_id: ctx.caller.sessionId ?? '', roles: (ctx.caller.claims?.roles as string[]) ?? [] };
  },
});

const signOutOp = defineOperation({
  name: 'sign_out',
  admin: false,
  kind: 'mutation',
  description: 'Ends the caller session',
  input: NoInput,
  output: MessageResponse,
  auth: 'user',
  handler: async (_input, ctx) => {
    if (ctx.caller.kind !== 'user' || !ctx.caller.sessionId) throw AppError.unauthenticated();
    await endSession(ctx, ctx.em, ctx.caller.sessionId);
    return { message: 'signed out' };
  },
});

const registry = createRegistry([whoamiOp, signOutOp]);

describe('user authenticator', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer([], { registry });
    grpc = createGrpcClient(server.ports.grpc!, registry);
  });
  after(async () => {
    grpc.close();
    await server.close();
  });

  const rest = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/v1/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.baseUrl, ...headers }, body: '{}' });
  const whoami = async (headers: Record<string, string>) => {
    const res = await rest('whoami', headers);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const graphqlWhoami = async (headers: Record<string, string>) => {
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, ...headers },
      body: JSON.stringify({ query: '{ whoami { user_id session_id roles } }' }),
    });
    return (await res.json()) as { data?: { whoami: Record<string, unknown> }; errors?: { extensions: { code: string } }[] };
  };

  test('a bearer access token authenticates over REST, GraphQL and gRPC with its session', async () => {
    const user = await createUser(server.app);
    const { tokens } = await login(server.app, user, { roles: ['user'] });
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    const viaRest = await whoami(auth);
    assert.equal(viaRest.status, 200);
    assert.equal(viaRest.body.user_id, user.id);
    assert.deepEqual(viaRest.body.roles, ['user']);
    assert.match(String(viaRest.body.session_id), /^[0-9a-f]{64}$/);
    assert.deepEqual((await graphqlWhoami(auth)).data?.whoami, viaRest.body);
    const viaGrpc = await grpc.call('PublicService', 'Whoami', {}, auth);
    assert.equal(viaGrpc.response.user_id, user.id);
  });

  test('either session cookie authenticates, to the same session as the tokens of the login', async () => {
    const user = await createUser(server.app);
    const { tokens, sessionToken } = await login(server.app, user);
    const byBearer = await whoami({ authorization: `Bearer ${tokens.access_token}` });
    for (const name of ['cookie_session', 'cookie_session_domain']) {
      const byCookie = await whoami({ cookie: `other=1; ${name}=${encodeURIComponent(sessionToken)}` });
      assert.equal(byCookie.status, 200, name);
      assert.deepEqual(byCookie.body, byBearer.body);
    }
    const viaGrpc = await grpc.call('PublicService', 'Whoami', {}, { cookie: `cookie_session=${sessionToken}` });
    assert.equal(viaGrpc.response.user_id, user.id);
  });

  test('a stale bearer next to a live cookie still authenticates', async () => {
    const user = await createUser(server.app);
    const { sessionToken } = await login(server.app, user);
    const res = await whoami({ authorization: 'Bearer not.a.token', cookie: `cookie_session=${sessionToken}` });
    assert.equal(res.status, 200);
    assert.equal(res.body.user_id, user.id);
  });

  test('no credential, an ID or refresh token, a forged token or an unknown cookie is refused', async () => {
    const user = await createUser(server.app);
    const { tokens } = await login(server.app, user, { scope: ['openid', 'offline_access'] });
    const none = await whoami({});
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'unauthenticated');
    for (const token of [tokens.id_token, tokens.refresh_token!, `${tokens.access_token.slice(0, -4)}AAAA`]) {
      assert.equal((await whoami({ authorization: `Bearer ${token}` })).status, 401);
    }
    assert.equal((await whoami({ cookie: 'cookie_session=made-up' })).status, 401);
    assert.equal((await graphqlWhoami({})).errors?.[0]?.extensions.code, 'UNAUTHENTICATED');
    await assert.rejects(grpc.call('PublicService', 'Whoami', {}, { authorization: `Bearer ${tokens.id_token}` }), { code: 16 });
  });

  test('logout over REST clears both cookies and refuses the old bearer and cookie at once', async () => {
    const user = await createUser(server.app);
    const { tokens, sessionToken } = await login(server.app, user);
    const res = await rest('sign_out', { authorization: `Bearer ${tokens.access_token}` });
    assert.equal(res.status, 200);
    const cleared = res.headers.getSetCookie();
    assert.equal(cleared.length, 2);
    for (const name of ['cookie_session', 'cookie_session_domain']) {
      assert.ok(cleared.some((c) => c.startsWith(`${name}=;`) && c.includes('Max-Age=0')), name);
    }
    assert.equal((await whoami({ authorization: `Bearer ${tokens.access_token}` })).status, 401);
    assert.equal((await whoami({ cookie: `cookie_session=${sessionToken}` })).status, 401);
    assert.equal((await rest('sign_out', { authorization: `Bearer ${tokens.access_token}` })).status, 401);
  });

  test('revoking the user, or every session of the user, refuses the next call', async () => {
    const revoked = await createUser(server.app);
    const r = await login(server.app, revoked);
    await server.app.deps.storage.fork().nativeUpdate(User, { id: revoked.id }, { revokedAt: new Date() });
    assert.equal((await whoami({ authorization: `Bearer ${r.tokens.access_token}` })).status, 401);
    assert.equal((await whoami({ cookie: `cookie_session=${r.sessionToken}` })).status, 401);

    const everything = await createUser(server.app);
    const e = await login(server.app, everything);
    await server.app.deps.storage.fork().transactional((tx) => revokeAllForUser(tx, server.app.deps.clock, everything.id));
    assert.equal((await whoami({ authorization: `Bearer ${e.tokens.access_token}` })).status, 401);
    assert.equal((await whoami({ cookie: `cookie_session=${e.sessionToken}` })).status, 401);
  });
});
