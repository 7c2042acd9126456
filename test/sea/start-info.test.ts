/**
 * `npm start` (build/start.ts) as a person first meets it:
 * - `npm start -- --help` and `-- --version` print the server's own answer and nothing else: no
 *   "Portcullis at …" banner above the help, no secrets generated, no UI build.
 * - The frontends are built in a child process, so the supervisor, which lives as long as the server,
 *   never holds Vite's memory (it kept about 1.1 GB after a build): it does not load the build tools at
 *   all, a child's memory is not the supervisor's, and a failed build stops `npm start` with its status.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildInChild } from '../../build/start.ts';
import { API_VERSION, PORTCULLIS_VERSION } from '../../server/version.ts';

const START_SCRIPT = join(import.meta.dirname, '..', '..', 'build', 'start.ts');

function inEmptyFolder(args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-start-info-'));
  try {
    const res = spawnSync(process.execPath, [START_SCRIPT, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    return { status: res.status, stdout: res.stdout, stderr: res.stderr, madeData: existsSync(join(dir, 'data')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('npm start -- --help and --version', () => {
  test('--help prints the flags only', () => {
    const res = inEmptyFolder(['--help']);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^Usage: portcullis \[options\]/);
    assert.doesNotMatch(res.stdout, /Portcullis at |admin secret (generated|kept)|building the login UI/);
    assert.equal(res.madeData, false, 'no data folder, no secrets');
  });

  test('--version prints the versions only', () => {
    const res = inEmptyFolder(['--version']);
    assert.equal(res.status, 0, res.stderr);
    assert.equal(res.stdout, `portcullis ${PORTCULLIS_VERSION} (API ${API_VERSION})\n`);
    assert.equal(res.madeData, false);
  });
});

describe('the UI build runs in a child process', () => {
  test('the supervisor does not load the build tools', () => {
    const source = readFileSync(START_SCRIPT, 'utf8');
    assert.doesNotMatch(source, /from '\.\/ui\.ts'|import\('\.\/ui\.ts'\)|from 'vite'|from '\.\/bundle\.ts'/);
  });

  test('a build\'s memory stays in the child, and a failed build is an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-child-build-'));
    try {
      // Stands in for Vite: 400 MiB touched, then exit 0; or exit 3.
      const heavy = join(dir, 'heavy.mjs');
      writeFileSync(heavy, 'const b = Buffer.alloc(400 * 1024 * 1024, 1); if (b[0] !== 1) process.exit(9); process.exit(Number(process.argv[2] ?? 0));\n');
      const before = process.memoryUsage().rss;
      await buildInChild(heavy);
      const grown = process.memoryUsage().rss - before;
      assert.ok(grown < 100 * 1024 * 1024, `the supervisor grew by ${Math.round(grown / 1024 / 1024)} MiB`);
      await assert.rejects(buildInChild(heavy, ['3']), /ended with exit code 3/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
