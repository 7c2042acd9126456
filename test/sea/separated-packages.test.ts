/**
 * nodemailer, ioredis and OpenFGA's DSL parser are not part of the executable's main script either: like
 * the database drivers, build/driver-bundles.ts bundles each on its own into a SEA asset, evaluated the
 * first time the server uses it (build/driver-loader.ts). The executable, alone in an empty folder, runs
 * its limits on Redis, sends a reset mail over SMTP, and parses a model in DSL, with the parser still set
 * to SLL prediction (common/fga-sll-prediction.ts adjusts the parser class the asset's transformer uses:
 * the 16 KB nested model that took seconds under LL prediction answers within a second).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { SECRETS, freePorts, isolatedCopy, run, serverFlags, stop, waitFor200, type Running, mainScriptInputs } from './executable.ts';

const SEPARATED = ['nodemailer', 'ioredis', '@openfga/syntax-transformer', 'antlr4'];

/** About 16 KB of rewrites nested 16 deep over undefined types (test/hostile/regressions.test.ts). */
function nestedInvalidModel(): string {
  let dsl = 'model\n  schema 1.1\ntype user\ntype doc\n  relations\n';
  for (let i = 0; dsl.length < 16_000; i += 1) dsl += `    define r${i}: [ghost${i}] or ${'('.repeat(16)}r${i}${')'.repeat(16)}\n`;
  return dsl;
}

describe('single executable: packages loaded from their assets', () => {
  let copy: ReturnType<typeof isolatedCopy>;
  let smtp: SmtpSink;
  let server: Running;
  let base: string;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, ...headers }, body: JSON.stringify(body) });

  before(async () => {
    copy = isolatedCopy();
    smtp = await startSmtpSink();
    const ports = await freePorts();
    base = `http://127.0.0.1:${ports.http}`;
    server = run(copy.executable, serverFlags(copy.dir, ports, [...smtp.flags(), '--redis-url', 'redis://127.0.0.1:6379/0']), copy.dir);
    await waitFor200(`${base}/readyz`, server, performance.now());
  });
  after(async () => {
    if (server) await stop(server);
    await smtp?.close();
    copy?.cleanup();
  });

  test('the main script holds none of them', () => {
    const main = mainScriptInputs();
    for (const name of SEPARATED) {
      assert.deepEqual(main.bundled(name), [], `${name} is bundled into the main script`);
    }
    // antlr4 travels inside the model parser's asset.
    for (const name of ['nodemailer', 'ioredis', '@openfga/syntax-transformer']) assert.ok(main.separated(name), `${name} is not loaded from its asset`);
  });

  test('sends a password reset mail over SMTP, with its limits counted in Redis', async () => {
    const email = `sea-separated-${Date.now()}@example.com`;
    const password = 'Sea-Separated-Passw0rd!';
    assert.equal((await post('/v1/signup', { email, password, confirm_password: password })).status, 200);
    const reset = await post('/v1/forgot_password', { email });
    assert.equal(reset.status, 200, await reset.clone().text());
    const mail = await smtp.waitFor((message) => message.envelope.to.includes(email), 15_000);
    assert.match(mail.text ?? mail.html ?? '', /https?:\/\//);
    assert.equal(server.output().stderr, '');
  });

  test('parses a model written in DSL, and a nested invalid one within a second (SLL prediction)', async () => {
    const admin = { 'x-service-admin-secret': SECRETS.adminSecret };
    const valid = await post('/v1/admin/fga/model', { dsl: 'model\n  schema 1.1\ntype user\ntype doc\n  relations\n    define viewer: [user]\n' }, admin);
    assert.equal(valid.status, 200, await valid.clone().text());
    const started = performance.now();
    const nested = await post('/v1/admin/fga/model', { dsl: nestedInvalidModel() }, admin);
    const elapsed = performance.now() - started;
    assert.equal(nested.status, 400);
    assert.equal(((await nested.json()) as { code?: string }).code, 'invalid_argument');
    assert.ok(elapsed < 1000, `the nested model took ${Math.round(elapsed)} ms`);
  });
});
