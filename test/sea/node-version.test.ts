/**
 * Started on a Node older than 24, the server refuses at once: exit status 1 and one line that names the
 * release it needs, the one it found, and what to run instead (`npm start`, or dist/portcullis, which
 * brings its own Node). Before, the README's `node dist/portcullis.cjs …` on the system Node 20 got as far
 * as opening the database and failed with "Cannot destructure property 'DatabaseSync'".
 *
 * The bundle is run on the machine's own Node (/usr/bin/node, Node 20 on the project's Debian machines and
 * CI, where `npm ci` runs on it). `node server/main.ts` cannot even load on Node 20 (no TypeScript there),
 * but Node 22 and 23 do load it, so that entry is run on this Node 24 told it is 22.12.0 by a preloaded
 * module: the check must still come before every other import of the entry. So is `npm start`'s script.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeVersionProblem, REQUIRED_NODE_MAJOR } from '../../server/node-version.ts';

const REPO = join(import.meta.dirname, '..', '..');
const BUNDLE = join(REPO, 'dist', 'portcullis.cjs');
const MAIN = join(REPO, 'server', 'main.ts');
const START_SCRIPT = join(REPO, 'build', 'start.ts');
const SYSTEM_NODE = '/usr/bin/node';

/** A complete, valid configuration: the refusal must come from the Node version, not from a flag. */
function goodFlags(dir: string): string[] {
  return [
    '--database-type', 'sqlite', '--database-url', join(dir, 'p.db'), '--url', 'http://127.0.0.1:8080',
    '--client-id', 'a', '--client-secret', 'b', '--admin-secret', 's',
    '--jwt-type', 'HS256', '--jwt-secret', 'k'.repeat(32),
    '--host', '127.0.0.1', '--http-port', '0', '--grpc-port', '0', '--metrics-port', '0',
  ];
}

function runIn(command: string, args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-node-version-'));
  try {
    const res = spawnSync(command, [...args, ...goodFlags(dir)], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    return { status: res.status, stdout: res.stdout, stderr: res.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function assertRefused(result: { status: number | null; stdout: string; stderr: string }, version: string): void {
  assert.equal(result.status, 1, `expected exit status 1, got ${result.status}\nstderr: ${result.stderr}`);
  assert.equal(result.stdout, '', 'nothing on standard output');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `expected one line, got:\n${result.stderr}`);
  assert.equal(lines[0], nodeVersionProblem(version));
  assert.match(lines[0]!, new RegExp(`needs Node\\.js ${REQUIRED_NODE_MAJOR} or newer \\(this is ${version.replace(/\./g, '\\.')}\\)`));
  assert.match(lines[0]!, /npm start/);
  assert.match(lines[0]!, /dist\/portcullis, which brings its own/);
}

describe('an older Node is refused at once with one line', () => {
  test('the bundle (node dist/portcullis.cjs) on the system Node 20', () => {
    assert.ok(existsSync(BUNDLE), 'dist/portcullis.cjs is missing: run `npm run build` (npm test does)');
    const version = spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' });
    assert.equal(version.status, 0, `${SYSTEM_NODE} must be the machine's own Node (Debian's nodejs): ${version.error?.message ?? version.stderr}`);
    const systemVersion = version.stdout.trim();
    assert.ok(Number(systemVersion.slice(1).split('.')[0]) < REQUIRED_NODE_MAJOR, `${SYSTEM_NODE} is ${systemVersion}: this test needs an older Node there`);
    assertRefused(runIn(SYSTEM_NODE, [BUNDLE]), systemVersion);
  });

  test('server/main.ts on a Node that reports 22.12.0 (Node 22 runs TypeScript)', () => {
    const pretend = 'data:text/javascript,Object.defineProperty(process,"version",{value:"v22.12.0"})';
    assertRefused(runIn(process.execPath, ['--import', pretend, MAIN]), 'v22.12.0');
  });

  test('npm start\'s build/start.ts on a Node that reports 23.11.0, before it writes any secret', () => {
    const pretend = 'data:text/javascript,Object.defineProperty(process,"version",{value:"v23.11.0"})';
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-node-version-'));
    try {
      const res = spawnSync(process.execPath, ['--import', pretend, START_SCRIPT], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      assertRefused({ status: res.status, stdout: res.stdout, stderr: res.stderr }, 'v23.11.0');
      assert.equal(existsSync(join(dir, 'data')), false, 'no data folder');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the check itself: 24 and later pass, anything older or unreadable is refused', () => {
    for (const ok of ['v24.0.0', 'v24.21.0', 'v25.1.0', 'v30.0.0']) assert.equal(nodeVersionProblem(ok), undefined, ok);
    for (const old of ['v18.19.1', 'v20.20.2', 'v22.22.0', 'v23.11.0', 'nonsense']) assert.ok(nodeVersionProblem(old), old);
  });
});
