/**
 * `npm start` (build/start.ts) in an empty working folder: the first run generates the instance secrets
 * into ./data/secrets.json (0600) and serves with them; the second run reuses them; the admin secret is
 * never printed; SIGTERM sent to the script reaches the server, which exits 0. The secrets reach the server
 * as file:<path> arguments, so its command line (/proc/<pid>/cmdline, what `ps` shows every local user)
 * holds none (ASVS 4.0 6.4.1); and stopping `npm start` itself, with SIGTERM as a supervisor does or SIGINT
 * as Ctrl-C does, stops the server.
 *
 * Signing: a new data folder gets an ES256 key (data/jwt-private-key.pem,
 * 0600), so /.well-known/jwks.json holds one EC key that verifies the tokens; a folder made by an older start
 * (secrets.json, no key file) keeps HS256 and the tokens it signs, and gets no key file behind its back.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { freePorts, run, stop, waitFor200, type Running } from './executable.ts';
import { signedInUser } from '../support/signed-in-user.ts';

const REPO = join(import.meta.dirname, '..', '..');
const START_SCRIPT = join(REPO, 'build', 'start.ts');

interface StoredSecrets {
  adminSecret: string;
  clientId: string;
  clientSecret: string;
  jwtSecret: string;
}

async function startFlags(): Promise<{ flags: string[]; http: number }> {
  const ports = await freePorts();
  const flags = [
    '--host', '127.0.0.1',
    '--http-port', String(ports.http),
    '--grpc-port', String(ports.grpc),
    '--metrics-port', String(ports.metrics),
    '--log-level', 'warn',
  ];
  return { flags, http: ports.http };
}

async function startOnce(cwd: string): Promise<{ running: Running; http: number }> {
  const { flags, http } = await startFlags();
  const running = run(process.execPath, [START_SCRIPT, ...flags], cwd);
  await waitFor200(`http://127.0.0.1:${http}/healthz`, running, performance.now());
  return { running, http };
}

const PASSWORD = 'Start!pass123';

/** Signs up a user over REST and logs in again; returns the access token of the login. */
async function loginAccessToken(http: number, email: string): Promise<string> {
  return (await signedInUser({ baseUrl: `http://127.0.0.1:${http}` }, { email, password: PASSWORD })).accessToken;
}

async function getJson(http: number, path: string): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${http}${path}`);
  assert.equal(res.status, 200, path);
  return res.json();
}

/** The parent process id of every live process, from /proc/<pid>/stat (Linux). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
}

/** The server process (node running server/main.ts) among the descendants of `root`. */
function serverPid(root: number): number {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  const descends = (pid: number): boolean => {
    for (let p = parentOf(pid); p !== undefined && p > 1; p = parentOf(p)) if (p === root) return true;
    return false;
  };
  const found = pids.filter((pid) => descends(pid) && cmdline(pid).some((arg) => arg.endsWith('server/main.ts')));
  assert.equal(found.length, 1, `one server process under ${root}, found ${found.length}`);
  return found[0]!;
}

async function gone(pid: number, timeoutMs = 15_000): Promise<boolean> {
  const since = performance.now();
  while (performance.now() - since < timeoutMs) {
    if (!existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
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

  test('the secrets reach the server as 0600 files: no process command line holds one', async () => {
    assert.ok(first, 'needs the first run');
    const { running } = await startOnce(cwd);
    try {
      const server = serverPid(running.child.pid!);
      const args = cmdline(server);
      const all = [...args, ...cmdline(running.child.pid!)].join(' ');
      for (const secret of [first.adminSecret, first.clientSecret, first.jwtSecret]) {
        assert.ok(!all.includes(secret), 'a secret is visible in the process list');
      }
      for (const flag of ['admin-secret', 'client-secret', 'jwt-secret']) {
        assert.equal(args[args.indexOf(`--${flag}`) + 1], `file:data/${flag}`);
        assert.equal(statSync(join(cwd, 'data', flag)).mode & 0o777, 0o600);
      }
      // The signing key is passed as a path: its PEM is in no command line.
      assert.equal(args[args.indexOf('--jwt-private-key') + 1], 'data/jwt-private-key.pem');
      assert.equal(statSync(join(cwd, 'data', 'jwt-private-key.pem')).mode & 0o777, 0o600);
      assert.ok(!all.includes('PRIVATE KEY'), 'a private key is visible in the process list');
      assert.equal(readFileSync(join(cwd, 'data', 'admin-secret'), 'utf8'), first.adminSecret);
    } finally {
      await stop(running);
    }
  });

  test('a new data folder signs with ES256: the JWKS has one P-256 key that verifies a login\'s tokens', async () => {
    assert.ok(first, 'needs the first run');
    const keyFile = join(cwd, 'data', 'jwt-private-key.pem');
    const key = createPrivateKey(readFileSync(keyFile, 'utf8'));
    assert.equal(key.asymmetricKeyType, 'ec');
    assert.equal(key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.match(readFileSync(keyFile, 'utf8'), /^-----BEGIN PRIVATE KEY-----\n/, 'PKCS#8 PEM');
    const { running, http } = await startOnce(cwd);
    try {
      const jwks = (await getJson(http, '/.well-known/jwks.json')) as JSONWebKeySet;
      assert.equal(jwks.keys.length, 1);
      assert.deepEqual([jwks.keys[0]!.kty, jwks.keys[0]!.crv, jwks.keys[0]!.alg], ['EC', 'P-256', 'ES256']);
      assert.equal((jwks.keys[0] as Record<string, unknown>).d, undefined, 'the private part is never published');
      const discovery = await getJson(http, '/.well-known/openid-configuration');
      assert.deepEqual(discovery.id_token_signing_alg_values_supported, ['ES256']);

      const token = await loginAccessToken(http, 'es256@example.com');
      const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
        issuer: `http://localhost:${http}`,
        audience: first.clientId,
        algorithms: ['ES256'],
      });
      assert.equal(protectedHeader.kid, jwks.keys[0]!.kid);
      assert.equal(payload.token_type, 'access_token');
      // The HMAC secret signs nothing now: a verifier holding it must not accept the token.
      await assert.rejects(jwtVerify(token, new TextEncoder().encode(first.jwtSecret), { algorithms: ['HS256'] }));
    } finally {
      await stop(running);
    }
  });

  test('SIGINT to the script (Ctrl-C) stops the server too', async () => {
    const { running } = await startOnce(cwd);
    const server = serverPid(running.child.pid!);
    running.child.kill('SIGINT');
    const ended = await running.exited;
    assert.equal(ended.code, 0, 'the server shut down gracefully and the script exited with it');
    assert.ok(await gone(server), 'the server still runs');
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

describe('npm start in a data folder made by an older start (secrets.json, no signing key)', () => {
  let cwd: string;
  const old: StoredSecrets = {
    adminSecret: 'old-admin-secret-0123456789abcdef0123456789',
    clientId: 'old-client-id',
    clientSecret: 'old-client-secret-0123456789abcdef012345678',
    jwtSecret: 'old-jwt-secret-0123456789abcdef0123456789abcdef',
  };
  before(() => {
    cwd = mkdtempSync(join(tmpdir(), 'portcullis-start-old-'));
    mkdirSync(join(cwd, 'data'), { mode: 0o700 });
    writeFileSync(join(cwd, 'data', 'secrets.json'), `${JSON.stringify(old, null, 2)}\n`, { mode: 0o600 });
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  test('keeps HS256 with its JWT secret, publishes no key and creates no key file', async () => {
    const { running, http } = await startOnce(cwd);
    try {
      assert.deepEqual(await getJson(http, '/.well-known/jwks.json'), { keys: [] });
      const discovery = await getJson(http, '/.well-known/openid-configuration');
      assert.deepEqual(discovery.id_token_signing_alg_values_supported, ['HS256']);
      const token = await loginAccessToken(http, 'hs256@example.com');
      const { payload } = await jwtVerify(token, new TextEncoder().encode(old.jwtSecret), {
        issuer: `http://localhost:${http}`,
        audience: old.clientId,
        algorithms: ['HS256'],
      });
      assert.equal(payload.token_type, 'access_token');
      assert.equal(existsSync(join(cwd, 'data', 'jwt-private-key.pem')), false, 'an older folder is not switched behind its back');
      assert.deepEqual(JSON.parse(readFileSync(join(cwd, 'data', 'secrets.json'), 'utf8')), old, 'secrets.json is left as it was');
      assert.match(running.output().stdout, /HS256/);
    } finally {
      await stop(running);
    }
  });
});

describe('stopping `npm start` itself', () => {
  let cwd: string;
  before(() => {
    // A folder shaped like a checkout: the real start script of package.json (pointed at this checkout's
    // build/start.ts) and node_modules, whose .bin gives npm scripts Node 24.
    const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } };
    assert.match(scripts.start, / build\/start\.ts$/);
    cwd = mkdtempSync(join(tmpdir(), 'portcullis-npm-start-'));
    const start = scripts.start.replace(/build\/start\.ts$/, START_SCRIPT);
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'npm-start-check', private: true, scripts: { start } }));
    symlinkSync(join(REPO, 'node_modules'), join(cwd, 'node_modules'));
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} to the npm process stops the server`, async () => {
      const { flags, http } = await startFlags();
      const npm = run('npm', ['start', '--', ...flags], cwd);
      let server: number | undefined;
      try {
        await waitFor200(`http://127.0.0.1:${http}/healthz`, npm, performance.now(), 30_000);
        server = serverPid(npm.child.pid!);
        npm.child.kill(signal);
        assert.ok(await gone(server), `the server outlived npm after ${signal}`);
        await assert.rejects(fetch(`http://127.0.0.1:${http}/healthz`), 'the port still answers');
      } finally {
        if (server !== undefined && existsSync(`/proc/${server}`)) process.kill(server, 'SIGKILL');
        await stop(npm);
      }
    });
  }
});
