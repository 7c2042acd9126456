/**
 * --custom-access-token-script (docs/tokens.md): adds claims to the access token, never overrides a
 * reserved claim, is cut off by its time limit, and a failing script is logged (without claim values) and
 * ignored, so logins keep working. The script runs in a QuickJS isolate: the node:vm escapes
 * (`this.constructor.constructor('return process')()`) find no host, and its memory is capped.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { signedInUser, signedUpUser } from '../support/signed-in-user.ts';

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
      return { greeting: 'hello ' + user.given_name, seen_scope: tokenPayload.scope, sub: 'attacker', roles: ['admin'], iss: 'evil', jti: 'x', act: { sub: 'attacker' } };
    }`;
    assert.deepEqual(await customClaims(script, user, payload, logger), { greeting: 'hello Ada', seen_scope: ['openid'] });
    const warning = lines().find((l) => String(l.msg).includes('reserved'));
    assert.deepEqual(warning?.claims, ['sub', 'roles', 'iss', 'jti', 'act']);
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
    const { logger, lines } = capturingLogger();
    const spin = 'function () { const spin = () => Promise.resolve().then(spin); spin(); return { a: 1 }; }';
    const hog = 'function () { const a = []; for (;;) a.push(new Array(1e5).fill(1)); }';
    for (const script of [spin, hog]) {
      const started = performance.now();
      assert.deepEqual(await customClaims(script, user, payload, logger), {});
      assert.ok(performance.now() - started < CUSTOM_SCRIPT_TIMEOUT_MS + 2000);
    }
    assert.ok(lines().some((l) => String(l.reason).includes('more than 1000 promise jobs')), 'the chain fails on the job bound, not on a race');
    assert.deepEqual(await customClaims('() => ({ ok: true })', user, payload, logger), { ok: true });
    // A script that queues a few promise jobs of its own still answers.
    assert.deepEqual(await customClaims('() => { for (let i = 0; i < 100; i++) Promise.resolve(i).then((v) => v); return { queued: 100 }; }', user, payload, logger), { queued: 100 });
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

/**
 * A script that tries `expression` and, if it yields the host's process, proves it by writing `marker` in
 * the host's file system and returning host data as claims.
 */
function escapeAttempt(expression: string, marker: string): string {
  return `function () {
    var got;
    try { got = (${expression}); } catch (e) { return { probe: 'blocked' }; }
    if (got && typeof got === 'object' && typeof got.pid === 'number') {
      try { got.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(marker)}, 'escaped'); } catch (e) {}
      return { probe: 'escaped', pid: got.pid, env: Object.keys(got.env || {}) };
    }
    return { probe: typeof got };
  }`;
}

const ESCAPES = [
  "this.constructor.constructor('return process')()",
  "globalThis.constructor.constructor('return process')()",
  "Object.getPrototypeOf(this).constructor.constructor('return process')()",
  "Function('return process')()",
  "(function () {}).constructor('return process')()",
  "Object.getPrototypeOf(async function () {}).constructor('return process')()",
  "eval('process')",
  "(0, eval)('globalThis.process')",
  "require('node:process')",
  'process',
  'globalThis.process',
];

describe('custom access-token script isolation', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-escape-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [index, expression] of ESCAPES.entries()) {
    test(`no host is reachable through ${expression}`, async () => {
      const { logger } = capturingLogger();
      const marker = join(dir, `escaped-${index}`);
      const claims = await customClaims(escapeAttempt(expression, marker), user, payload, logger);
      assert.equal(existsSync(marker), false, 'the script wrote to the host file system');
      assert.ok(['blocked', 'undefined'].includes(String(claims.probe)), `probe: ${JSON.stringify(claims)}`);
      assert.deepEqual(Object.keys(claims), ['probe'], 'no host data in the claims');
    });
  }

  test('a script that allocates without end fails at the memory cap, quickly, and the next call works', async () => {
    const { logger, lines } = capturingLogger();
    const hog = 'function () { const kept = []; for (;;) kept.push(new ArrayBuffer(1 << 20)); }';
    const started = performance.now();
    assert.deepEqual(await customClaims(hog, user, payload, logger), {});
    const elapsed = performance.now() - started;
    // Out of memory, not cut by the clock: the cap holds even for memory outside a JavaScript heap.
    assert.ok(lines().some((l) => String(l.reason).includes('out of memory')), JSON.stringify(lines()));
    assert.ok(elapsed < 2000, `took ${elapsed} ms`);
    assert.deepEqual(await customClaims('() => ({ after: "hog" })', user, payload, logger), { after: 'hog' });
  });

  test('endless recursion ends as a stack overflow, and the next call works', async () => {
    const { logger, lines } = capturingLogger();
    assert.deepEqual(await customClaims('function deep(u) { return deep(u) + 1 }', user, payload, logger), {});
    assert.ok(lines().some((l) => /stack overflow/i.test(String(l.reason))), JSON.stringify(lines()));
    assert.deepEqual(await customClaims('(u) => ({ name: u.given_name })', user, payload, logger), { name: 'Ada' });
  });

  test('the script sees JSON copies only: what it changes on its arguments stays inside', async () => {
    const { logger } = capturingLogger();
    const local = { ...user, roles: ['user'] };
    const script = '(u, p) => { u.roles.push("admin"); p.sub = "other"; return { n: u.roles.length } }';
    assert.deepEqual(await customClaims(script, local, { ...payload }, logger), { n: 2 });
    assert.deepEqual(local.roles, ['user']);
  });
});

describe('custom access-token script over REST', () => {
  const PASSWORD = 'Script-Test-Passw0rd!';
  let server: TestServer;
  let logs: () => Record<string, unknown>[];
  let dir: string;
  let marker: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-escape-'));
    marker = join(dir, 'escaped');
    const captured = capturingLogger();
    logs = captured.lines;
    const script = `function (user, tokenPayload) {
      var email = user.email || '';
      if (email.indexOf('loop') === 0) { while (true) {} }
      if (email.indexOf('spin') === 0) { var spin = function () { return Promise.resolve().then(spin); }; spin(); }
      if (email.indexOf('hog') === 0) { var kept = []; for (;;) kept.push(new ArrayBuffer(1 << 20)); }
      if (email.indexOf('escape') === 0) { return (${escapeAttempt("this.constructor.constructor('return process')()", marker)}).call(this); }
      return { department: 'engineering', sub: 'someone-else', roles: ['admin'] };
    }`;
    server = await startServer(['--custom-access-token-script', script, '--log-level', 'debug'], { logger: captured.logger });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const signupAndLogin = async (email: string): Promise<Record<string, unknown>> => decodeJwt((await signedInUser(server, { email, password: PASSWORD })).accessToken);

  test('a normal login carries the added claim; reserved claims stay the server\'s', async () => {
    const access = await signupAndLogin('normal@example.com');
    assert.equal(access.department, 'engineering');
    assert.notEqual(access.sub, 'someone-else');
    assert.deepEqual(access.roles, ['user']);
  });

  test('the node:vm escape finds no host: the login succeeds and no claim carries host data', async () => {
    const access = await signupAndLogin('escape@example.com');
    assert.equal(existsSync(marker), false, 'the script wrote to the host file system');
    assert.ok(['blocked', 'undefined'].includes(String(access.probe)), `probe: ${String(access.probe)}`);
    assert.equal(access.pid, undefined);
    assert.equal(access.env, undefined);
  });

  test('an endless loop is cut at the time limit while /healthz keeps answering, and the next login works', async () => {
    const api = restClient(server);
    await signedUpUser(server, { email: 'loop@example.com', password: PASSWORD });
    const started = performance.now();
    const looping = api.post('/v1/login', { email: 'loop@example.com', password: PASSWORD });
    const health = await (async () => {
      const sent = performance.now();
      const res = await fetch(`${server.baseUrl}/healthz`);
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - sent };
    })();
    const login = await looping;
    assert.equal(health.status, 200);
    assert.ok(health.ms < 1000, `/healthz took ${health.ms} ms`);
    assert.equal(login.status, 200);
    assert.ok(performance.now() - started < 2000);
    assert.equal(decodeJwt(login.body.access_token).department, undefined);
    assert.ok(logs().some((l) => String(l.reason).includes('timed out')));
    assert.equal((await signupAndLogin('after-loop@example.com')).department, 'engineering');
  });

  test('an endless promise chain and an endless allocation fail safely; logins go on', async () => {
    for (const email of ['spin@example.com', 'hog@example.com']) {
      const started = performance.now();
      const access = await signupAndLogin(email);
      assert.equal(access.department, undefined, email);
      assert.ok(performance.now() - started < 4000, `${email} took ${performance.now() - started} ms`);
    }
    assert.equal((await signupAndLogin('after-hog@example.com')).department, 'engineering');
  });
});
