/** Startup refusals of the limit flags: one line naming the flag (docs/errors.md#startup-refusals). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../server/config/parse.ts';
import { baseFlags } from '../support/app.ts';

const dir = mkdtempSync(join(tmpdir(), 'portcullis-limits-config-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

const refused = (extra: string[]) => {
  try {
    parseConfig([...baseFlags(dir), ...extra]);
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
};

test('limit flags out of range are refused at startup', () => {
  assert.match(refused(['--login-lockout-threshold', '26']) ?? '', /^--login-lockout-threshold must be between 1 and 25/);
  assert.match(refused(['--login-lockout-threshold', '0']) ?? '', /^--login-lockout-threshold must be between 1 and 25/);
  // Negative numbers are refused by the flag parser already, naming the flag.
  assert.match(refused(['--rate-limit-rps', '-1']) ?? '', /--rate-limit-rps/);
  assert.match(refused(['--rate-limit-burst', '-5']) ?? '', /--rate-limit-burst/);
  assert.match(refused(['--redis-url', 'http://127.0.0.1:6379']) ?? '', /^--redis-url must be a redis:\/\/ or rediss:\/\/ URL/);
  assert.equal(refused(['--login-lockout-threshold', '25', '--rate-limit-rps', '0', '--rate-limit-burst', '0']), undefined);
});

test('an unreachable --redis-url is a one-line startup refusal naming the flag, password hidden', () => {
  const main = join(import.meta.dirname, '../../server/main.ts');
  const res = spawnSync(process.execPath, [main, ...baseFlags(dir), '--redis-url', 'redis://:hunter2@127.0.0.1:1/0'], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(res.status, 1, res.stderr);
  const lines = res.stderr.trim().split('\n');
  assert.equal(lines.length, 1, res.stderr);
  assert.match(lines[0]!, /^portcullis: cannot reach Redis at --redis-url redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0: /);
  assert.ok(!res.stderr.includes('hunter2'));
});
