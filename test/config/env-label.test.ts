/**
 * --env labels every log line (`"env":"<name>"` beside `"service":"portcullis"`), so lines from a staging and
 * a production instance that share a log pipeline can be told apart. Before, the flag was accepted and did
 * nothing visible.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = join(import.meta.dirname, '..', '..', 'server', 'main.ts');

test('the startup line and every other log line carry --env', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-env-'));
  const child = spawn(process.execPath, [
    MAIN, '--database-type', 'sqlite', '--database-url', join(dir, 'p.db'), '--url', 'http://127.0.0.1:8080',
    '--client-id', 'a', '--client-secret', 'b', '--admin-secret', 's', '--jwt-type', 'HS256', '--jwt-secret', 'k'.repeat(32),
    '--host', '127.0.0.1', '--http-port', '0', '--grpc-port', '0', '--metrics-port', '0', '--env', 'staging-eu',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  try {
    const deadline = Date.now() + 60_000;
    while (!stdout.includes('portcullis started') && Date.now() < deadline && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(stdout.includes('portcullis started'), `no startup line\nstdout: ${stdout}\nstderr: ${stderr}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.ok(lines.length >= 2, stdout);
  for (const line of lines) {
    assert.equal(line.service, 'portcullis');
    assert.equal(line.env, 'staging-eu', JSON.stringify(line));
  }
});
