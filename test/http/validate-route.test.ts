/**
 * POST /v1/validate_jwt_token has a lean REST handler (transports/http/validate-route.ts). It must answer
 * byte for byte what the generic REST route answers, for every input: two servers share one SQLite file
 * and one clock, one with the lean route and one whose registry names the operation differently (the lean
 * table then has no entry for it, so the same path gets the generic handler), and each input goes to both.
 * Status, body text and every header but Date must be equal. A second part checks that a plain input is
 * answered by the lean handler itself and anything else is handed to the generic one.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { createRegistry, registry } from '../../server/ops/registry.ts';
import type { AnyOperation } from '../../server/ops/define.ts';
import { leanValidateHandler } from '../../server/transports/http/validate-route.ts';

const PATH = '/v1/validate_jwt_token';
const PASSWORD = 'Str0ng!pass-validate';
/** Trust of a cached answer without a broadcast channel (SQLite): after it, both servers read the same rows. */
const TRUST_MS = 100;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The generic server's registry: the same operations, validate_jwt_token under a name the lean table does not list. */
function genericRegistry() {
  return createRegistry(registry.all.map((op) => (op.name === 'validate_jwt_token' ? { ...op, name: 'validate_jwt_token_generic' } : op)));
}

describe('the lean validate_jwt_token route answers as the generic one', () => {
  const clock = new TestClock();
  let lean: TestServer;
  let generic: TestServer;
  let tokens: { access_token: string; id_token: string; refresh_token: string };
  let userId: string;
  let sessionCookie: string;

  async function send(server: TestServer, body: string, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(server.baseUrl + PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, ...headers },
      body,
    });
    const answerHeaders: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (name !== 'date') answerHeaders[name] = value;
    });
    return { status: res.status, headers: answerHeaders, body: await res.text() };
  }

  /** Sends `body` to both servers (twice each: the second answer may come from the lean route's memo). */
  async function assertSameAnswer(what: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
    const first = await send(lean, body, headers);
    const again = await send(lean, body, headers);
    const reference = await send(generic, body, headers);
    // The origin differs (each server's own base URL); everything the route decides must not.
    const comparable = (answer: Answer) => ({ ...answer, headers: { ...answer.headers, 'access-control-allow-origin': '' } });
    assert.deepEqual(comparable(first), comparable(reference), `${what}: lean and generic answers differ`);
    assert.deepEqual(comparable(again), comparable(reference), `${what}: the lean route's second answer differs`);
    return first;
  }

  const json = (value: unknown) => JSON.stringify(value);

  before(async () => {
    lean = await startServer(['--roles', 'user,editor', '--default-roles', 'user'], { clock });
    const database = lean.app.deps.config.databaseUrl ?? '';
    generic = await startServer(['--roles', 'user,editor', '--default-roles', 'user', '--database-url', database], { clock, registry: genericRegistry() });
    const signup = await fetch(`${lean.baseUrl}/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: lean.baseUrl },
      body: json({ email: 'lean@example.com', password: PASSWORD, confirm_password: PASSWORD, roles: ['user', 'editor'] }),
    });
    assert.equal(signup.status, 200, await signup.clone().text());
    userId = ((await signup.json()) as { user: { id: string } }).user.id;
    const login = await fetch(`${lean.baseUrl}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: lean.baseUrl },
      body: json({ email: 'lean@example.com', password: PASSWORD, scope: ['openid', 'email', 'offline_access'] }),
    });
    assert.equal(login.status, 200);
    sessionCookie = login.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ');
    tokens = (await login.json()) as typeof tokens;
  });
  after(async () => {
    await generic?.close();
    await lean?.close();
  });

  test('valid tokens of each type, with their claims and roles', async () => {
    const access = await assertSameAnswer('access token', json({ token_type: 'access_token', token: tokens.access_token }));
    assert.equal(access.status, 200);
    assert.deepEqual(JSON.parse(access.body).claims.roles, ['user', 'editor']);
    await assertSameAnswer('ID token', json({ token_type: 'id_token', token: tokens.id_token }));
    await assertSameAnswer('refresh token', json({ token_type: 'refresh_token', token: tokens.refresh_token }));
    await assertSameAnswer('fields in another order', json({ token: tokens.access_token, token_type: 'access_token' }));
  });

  test('inputs the lean route hands to the generic one, and refusals', async () => {
    const token = tokens.access_token;
    const cases: Array<[string, string, Record<string, string>?]> = [
      ['roles held', json({ token_type: 'access_token', token, roles: ['editor'] })],
      ['a role not held', json({ token_type: 'access_token', token, roles: ['admin'] })],
      ['an extra field', json({ token_type: 'access_token', token, extra: 1 })],
      ['a null field', json({ token_type: 'access_token', token, roles: null })],
      ['required relations with FGA', json({ token_type: 'access_token', token, required_relations: [{ relation: 'viewer', object: 'doc:1' }] })],
      ['the wrong token type', json({ token_type: 'id_token', token })],
      ['an unknown token type', json({ token_type: 'bearer', token })],
      ['a token type that is not text', json({ token_type: 1, token })],
      ['a missing token', json({ token_type: 'access_token' })],
      ['a missing token type', json({ token })],
      ['an empty token', json({ token_type: 'access_token', token: '' })],
      ['an empty body object', '{}'],
      ['a JSON array', '[]'],
      ['a JSON string', '"token"'],
      ['JSON null', 'null'],
      ['malformed JSON', '{"token_type":'],
      ['a token with a NUL', json({ token_type: 'access_token', token: `${token}\u0000` })],
      ['a token with a line feed', json({ token_type: 'access_token', token: `${token}\n` })],
      ['a token with spaces', json({ token_type: 'access_token', token: ` ${token} ` })],
      ['a token over the length bound', json({ token_type: 'access_token', token: 'a'.repeat(4097) })],
      ['a token at the length bound', json({ token_type: 'access_token', token: 'a'.repeat(4096) })],
      ['garbage in the JWS alphabet', json({ token_type: 'access_token', token: 'aaa.bbb.ccc' })],
      ['a tampered signature', json({ token_type: 'access_token', token: `${token.slice(0, -4)}AAAA` })],
      ['a tampered payload', json({ token_type: 'access_token', token: token.replace(/\.(.)/, '.X') })],
      ['a text/plain body', json({ token_type: 'access_token', token }), { 'content-type': 'text/plain' }],
      ['a form body', `token_type=access_token&token=${token}`, { 'content-type': 'application/x-www-form-urlencoded' }],
      ['no Origin (CSRF)', json({ token_type: 'access_token', token }), { origin: '' }],
      ['a foreign client id', json({ token_type: 'access_token', token }), { 'x-authorizer-client-id': 'someone-else' }],
    ];
    for (const [what, body, headers] of cases) await assertSameAnswer(what, body, headers);
  });

  test('a removed role is narrowed away at once, on both routes', async () => {
    await adminClient(lean).ok('update_user', { id: userId, roles: ['user'] });
    // The write counts at once on the server that made it; the other trusts its cached row for TRUST_MS.
    const leanAnswer = await send(lean, json({ token_type: 'access_token', token: tokens.access_token }));
    assert.deepEqual(JSON.parse(leanAnswer.body).claims.roles, ['user']);
    assert.deepEqual(JSON.parse(leanAnswer.body).claims.allowed_roles, ['user']);
    await sleep(TRUST_MS * 2);
    await assertSameAnswer('after the role change', json({ token_type: 'access_token', token: tokens.access_token }));
  });

  test('an expired token is refused on both, and counts again when the clock comes back', async () => {
    const body = json({ token_type: 'access_token', token: tokens.access_token });
    await assertSameAnswer('before expiry', body);
    clock.advance(24 * 3600);
    try {
      const expired = await assertSameAnswer('expired', body);
      assert.equal(expired.status, 401);
      assert.equal(JSON.parse(expired.body).message, 'token has expired');
    } finally {
      clock.offsetMs = 0;
    }
    assert.equal((await assertSameAnswer('back in time', body)).status, 200);
  });

  test('a logged-out token is refused at once by the lean route, then by both alike', async () => {
    const body = json({ token_type: 'access_token', token: tokens.access_token });
    assert.equal((await send(lean, body)).status, 200);
    const logout = await fetch(`${lean.baseUrl}/v1/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: lean.baseUrl, cookie: sessionCookie, authorization: `Bearer ${tokens.access_token}` },
      body: '{}',
    });
    assert.equal(logout.status, 200, await logout.text());
    assert.equal((await send(lean, body)).status, 401, 'revocation is immediate on the lean route');
    await sleep(TRUST_MS * 2);
    const revoked = await assertSameAnswer('revoked', body);
    assert.equal(revoked.status, 401);
  });
});

describe('the lean handler answers plain inputs itself and hands the rest to the generic one', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.close());

  /** Runs the lean handler on `body` with a recording generic handler; answers whether the generic one ran. */
  async function handedOver(body: unknown): Promise<boolean> {
    const op = registry.byName('validate_jwt_token') as AnyOperation;
    let genericRan = false;
    const handler = leanValidateHandler(server.app.deps, op, async (_request, reply) => {
      genericRan = true;
      return reply;
    });
    const reply = {
      request: {} as FastifyRequest,
      header: () => reply,
      getHeader: () => undefined,
      type: () => reply,
      status: () => reply,
      send: () => reply,
    } as unknown as FastifyReply;
    const request = { id: 'req-1', ip: '127.0.0.1', headers: {}, body, log: server.app.deps.logger } as unknown as FastifyRequest;
    await handler(request, reply);
    return genericRan;
  }

  test('plain token inputs stay on the lean handler, whatever the token says', async () => {
    for (const tokenType of ['access_token', 'id_token', 'refresh_token']) {
      assert.equal(await handedOver({ token_type: tokenType, token: 'aaa.bbb.ccc' }), false, tokenType);
    }
    assert.equal(await handedOver({ token: 'aaa.bbb.ccc', token_type: 'access_token' }), false);
  });

  test('anything else goes to the generic handler', async () => {
    const others: unknown[] = [
      undefined,
      null,
      'text',
      [],
      {},
      { token_type: 'access_token' },
      { token_type: 'access_token', token: 'aaa.bbb.ccc', roles: [] },
      { token_type: 'access_token', token: 'aaa.bbb.ccc', extra: null },
      { token_type: 'bearer', token: 'aaa.bbb.ccc' },
      { token_type: 'access_token', token: '' },
      { token_type: 'access_token', token: 'a b' },
      { token_type: 'access_token', token: 'a'.repeat(4097) },
      { token_type: 'access_token', token: 7 },
      Object.assign(Object.create(null), { token_type: 'access_token', token: 'aaa.bbb.ccc' }),
    ];
    for (const body of others) assert.equal(await handedOver(body), true, JSON.stringify(body));
  });
});
