/**
 * --custom-access-token-script (reference.md "Tokens"): adds claims to the access token, never overrides a
 * reserved claim, is cut off by its time limit, and a failing script is logged (without claim values) and
 * ignored, so logins keep working.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { createUser, login } from './support.ts';
import { customClaims, CUSTOM_SCRIPT_TIMEOUT_MS } from '../../server/modules/tokens/index.ts';

function capturingLogger(): { logger: pino.Logger; lines: () => Record<string, unknown>[] } {
  const out: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void out.push(line) });
  return { logger, lines: () => out.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const user = { id: 'u1', email: 'ada@example.com', given_name: 'Ada', roles: ['user'] };
const payload = { sub: 'u1', roles: ['user'], scope: ['openid'] };

describe('custom access-token script in the sandbox', () => {
  test('its claims are added; reserved claims it returns are dropped and named in the log', async () => {
    const { logger, lines } = capturingLogger();
    const script = `function (user, tokenPayload) {
      return { greeting: 'hello ' + user.given_name, seen_scope: tokenPayload.scope, sub: 'attacker', roles: ['admin'], iss: 'evil', jti: 'x' };
    }`;
    assert.deepEqual(await customClaims(script, user, payload, logger), { greeting: 'hello Ada', seen_scope: ['openid'] });
    const warning = lines().find((l) => String(l.msg).includes('reserved'));
    assert.deepEqual(warning?.claims, ['sub', 'roles', 'iss', 'jti']);
    assert.ok(!JSON.stringify(lines()).includes('attacker'), 'claim values are not logged');
  });

  test('arrow functions, trailing semicolons and comments are accepted', async () => {
    const { logger } = capturingLogger();
    assert.deepEqual(await customClaims('(u, p) => ({ tier: u.email.split("@")[1] }); // trailing comment', user, payload, logger), { tier: 'example.com' });
  });

  test('a looping script is cut off by the time limit and adds nothing, without blocking the event loop', async () => {
    const { logger, lines } = capturingLogger();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = performance.now();
    try {
      assert.deepEqual(await customClaims('function () { while (true) {} }', user, payload, logger), {});
    } finally {
      clearInterval(ticker);
    }
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= CUSTOM_SCRIPT_TIMEOUT_MS * 0.9 && elapsed < CUSTOM_SCRIPT_TIMEOUT_MS + 1000, `took ${elapsed} ms`);
    assert.ok(ticks >= 3, `the event loop kept running (${ticks} ticks)`);
    assert.ok(lines().some((l) => String(l.msg).includes('failed') && String(l.reason).includes('timed out')));
  });

  test('a runaway promise chain and a memory hog are cut off too, and the next call still works', async () => {
    const { logger } = capturingLogger();
    const spin = 'function () { const spin = () => Promise.resolve().then(spin); spin(); return { a: 1 }; }';
    const hog = 'function () { const a = []; for (;;) a.push(new Array(1e5).fill(1)); }';
    for (const script of [spin, hog]) {
      const started = performance.now();
      assert.deepEqual(await customClaims(script, user, payload, logger), {});
      assert.ok(performance.now() - started < CUSTOM_SCRIPT_TIMEOUT_MS + 2000);
    }
    assert.deepEqual(await customClaims('() => ({ ok: true })', user, payload, logger), { ok: true });
  });

  test('concurrent calls each get their own answer', async () => {
    const { logger } = capturingLogger();
    const script = '(u, p) => ({ echo: p.sub })';
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((sub) => customClaims(script, user, { ...payload, sub }, logger)));
    assert.deepEqual(answers.map((a) => a.echo), ['a', 'b', 'c', 'd']);
  });

  test('a throwing script, a non-object result, a script that does not compile and eval are ignored', async () => {
    const { logger, lines } = capturingLogger();
    assert.deepEqual(await customClaims('function () { throw new Error("boom") }', user, payload, logger), {});
    assert.deepEqual(await customClaims('function () { return [1, 2] }', user, payload, logger), {});
    assert.deepEqual(await customClaims('function ( {', user, payload, logger), {});
    assert.deepEqual(await customClaims('function ( {', user, payload, logger), {});
    assert.deepEqual(await customClaims('function () { return eval("({ a: 1 })") }', user, payload, logger), {});
    assert.equal(lines().filter((l) => String(l.msg).includes('does not compile')).length, 1, 'a broken script is reported once');
  });

  test('the script cannot reach the host: no require, process or globals of the server', async () => {
    const { logger } = capturingLogger();
    const script = `function () {
      return { require: typeof require, process: typeof process, globalThis: Object.keys(globalThis).filter((k) => !k.startsWith('__')) };
    }`;
    assert.deepEqual(await customClaims(script, user, payload, logger), { require: 'undefined', process: 'undefined', globalThis: [] });
  });
});

describe('custom access-token script at login', () => {
  let server: TestServer;
  let logs: () => Record<string, unknown>[];
  before(async () => {
    const captured = capturingLogger();
    logs = captured.lines;
    const script = `function (user, tokenPayload) {
      if (user.email && user.email.startsWith('loop')) { while (true) {} }
      return { department: 'engineering', sub: 'someone-else', roles: ['admin'], allowed_roles: ['admin'], token_type: 'id_token' };
    }`;
    server = await startServer(['--custom-access-token-script', script, '--log-level', 'debug'], { logger: captured.logger });
  });
  after(() => server.close());

  test('the access token carries the added claim and keeps sub, roles and token_type', async () => {
    const row = await createUser(server.app);
    const { tokens } = await login(server.app, row);
    const access = decodeJwt(tokens.access_token);
    assert.equal(access.department, 'engineering');
    assert.equal(access.sub, row.id);
    assert.deepEqual(access.roles, ['user']);
    assert.deepEqual(access.allowed_roles, ['user']);
    assert.equal(access.token_type, 'access_token');
    assert.equal(decodeJwt(tokens.id_token).department, undefined, 'the script shapes the access token only');
  });

  test('a script that loops for one user does not stop that user from logging in', async () => {
    const row = await createUser(server.app, { email: 'loop@example.com' });
    const started = performance.now();
    const { tokens } = await login(server.app, row);
    assert.ok(performance.now() - started < 2000);
    const access = decodeJwt(tokens.access_token);
    assert.equal(access.sub, row.id);
    assert.equal(access.department, undefined);
    assert.ok(logs().some((l) => String(l.msg).includes('custom-access-token-script failed')));
  });
});
