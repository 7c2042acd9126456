/**
 * `npm start` (build/start.ts) in an empty working folder: the first run generates the instance secrets
 * into ./data/secrets.json (0600) and serves with them; the second run reuses them; the admin secret is
 * never printed; SIGTERM sent to the script reaches the server, which exits 0.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, run, stop, waitFor200, type Running } from './executable.ts';

const START_SCRIPT = join(import.meta.dirname, '..', '..', 'build', 'start.ts');

interface StoredSecrets {
  adminSecret: string;
  clientId: string;
  clientSecret: string;
  jwtSecret: string;
}

async function startOnce(cwd: string): Promise<{ running: Running; http: number }> {
  const ports = await freePorts();
  const args = [
    START_SCRIPT,
    '--host', '127.0.0.1',
    '--http-port', String(ports.http),
    '--grpc-port', String(ports.grpc),
    '--metrics-port', String(ports.metrics),
    '--log-level', 'warn',
  ];
  const running = run(process.execPath, args, cwd);
  await waitFor200(`http://127.0.0.1:${ports.http}/healthz`, running, performance.now());
  return { running, http: ports.http };
}

describe('npm start', () => {
  let cwd: string;
  before(() => {
    cwd = mkdtempSync(join(tmpdir(), 'portcullis-start-'));
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  let first: StoredSecrets;

  test('first run generates the secrets (0600), prints the URL and the file, never the secret', async () => {
    const { running, http } = await startOnce(cwd);
    try {
      const file = join(cwd, 'data', 'secrets.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(join(cwd, 'data')).mode & 0o077, 0, 'data/ is private to its owner');
      first = JSON.parse(readFileSync(file, 'utf8')) as StoredSecrets;
      for (const value of Object.values(first)) assert.ok(value.length >= 32, 'each secret is long and random');
      assert.equal(new Set(Object.values(first)).size, 4, 'four different values');

      const { stdout, stderr } = running.output();
      assert.match(stdout, new RegExp(`http://localhost:${http}\\b`));
      assert.match(stdout, /data\/secrets\.json/);
      for (const secret of [first.adminSecret, first.clientSecret, first.jwtSecret]) {
        assert.ok(!stdout.includes(secret) && !stderr.includes(secret), 'a secret was printed');
      }

      // The server runs with the generated admin secret: it opens an admin session.
      const login = await fetch(`http://127.0.0.1:${http}/v1/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${http}` },
        body: JSON.stringify({ admin_secret: first.adminSecret }),
      });
      await login.arrayBuffer();
      assert.equal(login.status, 200);
      assert.ok(statSync(join(cwd, 'data', 'portcullis.db')).isFile(), 'SQLite database kept in data/');
    } finally {
      const ended = await stop(running);
      assert.deepEqual(ended, { code: 0, signal: null }, 'SIGTERM reaches the server, which exits 0');
    }
  });

  test('a second run reuses the same secrets', async () => {
    assert.ok(first, 'needs the first run');
    const { running } = await startOnce(cwd);
    try {
      const again = JSON.parse(readFileSync(join(cwd, 'data', 'secrets.json'), 'utf8')) as StoredSecrets;
      assert.deepEqual(again, first);
      assert.match(running.output().stdout, /kept in data\/secrets\.json/);
    } finally {
      await stop(running);
    }
  });
});
