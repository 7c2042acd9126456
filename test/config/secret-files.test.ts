/**
 * Secret flags accept `file:<path>` (ASVS 2.10.4 / 6.4.1: secrets out of the process list): the value is read
 * from the file with one trailing newline dropped; an unreadable or empty file is a one-line startup refusal
 * naming the flag, which never prints a secret.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_FLAGS } from '../../server/config/flags.ts';
import { parseConfig, buildCommand } from '../../server/config/parse.ts';

const MAIN = join(import.meta.dirname, '../../server/main.ts');
const JWT = 'file-jwt-secret-0123456789abcdef-0123456789abcdef';

describe('secret flags given as file:<path>', () => {
  let dir: string;
  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content, { mode: 0o600 });
    return `file:${path}`;
  };
  const base = (): string[] => ['--database-url', join(dir, 'p.db'), '--url', 'http://127.0.0.1:8080', '--client-id', 'a'];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-secret-files-'));
  });

  test('every secret is read from its file, one trailing newline dropped', () => {
    const config = parseConfig([
      ...base(),
      '--admin-secret', file('admin', 'admin-from-file\n'),
      '--client-secret', file('client', 'client-from-file\r\n'),
      '--jwt-secret', file('jwt', `${JWT}\n`),
      '--encryption-key', file('enc', 'enc-from-file'),
      '--smtp-password', file('smtp', 'smtp-from-file\n\n'),
      '--redis-url', file('redis', 'redis://:pw@127.0.0.1:6379\n'),
      '--github-client-id', 'gh', '--github-client-secret', file('gh', 'gh-secret\n'),
    ]);
    assert.equal(config.adminSecret, 'admin-from-file');
    assert.equal(config.clientSecret, 'client-from-file');
    assert.equal(config.jwtSecret, JWT);
    assert.equal(config.encryptionKey, 'enc-from-file');
    assert.equal(config.smtpPassword, 'smtp-from-file\n', 'only one trailing newline is dropped');
    assert.equal(config.redisUrl, 'redis://:pw@127.0.0.1:6379');
    assert.equal(config.social.github?.clientSecret, 'gh-secret');
  });

  test('inline values keep working, and a SQLite file: database URL still names the database file', () => {
    const config = parseConfig([...base(), '--database-url', `file:${join(dir, 'q.db')}`, '--admin-secret', 'inline', '--client-secret', 'c', '--jwt-secret', JWT]);
    assert.equal(config.adminSecret, 'inline');
    assert.equal(config.databaseUrl, `file:${join(dir, 'q.db')}`);
  });

  test('--help says each secret flag takes file:<path>', () => {
    const help = buildCommand().helpInformation();
    for (const def of ALL_FLAGS.filter((d) => d.secret && d.kind === 'string')) {
      const line = help.slice(help.indexOf(`--${def.name} `)).split(/\n\s+--/)[0]!;
      assert.match(line.replace(/\s+/g, ' '), /file:<path>/, `--${def.name}`);
    }
  });

  test('an unreadable file is a one-line refusal naming the flag; a bad secret from a file is never printed', () => {
    const missing = spawnSync(process.execPath, [MAIN, ...base(), '--client-secret', 'c', '--jwt-secret', JWT, '--admin-secret', `file:${join(dir, 'nope')}`], { encoding: 'utf8', timeout: 20_000 });
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr.trim(), /^.*--admin-secret file:.*nope cannot be read \(ENOENT\)$/);
    assert.equal(missing.stderr.trim().split('\n').length, 1);

    const empty = spawnSync(process.execPath, [MAIN, ...base(), '--client-secret', 'c', '--jwt-secret', JWT, '--admin-secret', file('empty', '\n')], { encoding: 'utf8', timeout: 20_000 });
    assert.notEqual(empty.status, 0);
    assert.match(empty.stderr, /--admin-secret file:.* is empty/);

    const short = 'too-short-secret-hunter2';
    const weak = spawnSync(process.execPath, [MAIN, ...base(), '--client-secret', 'c', '--admin-secret', 's', '--jwt-secret', file('short', short)], { encoding: 'utf8', timeout: 20_000 });
    assert.notEqual(weak.status, 0);
    assert.match(weak.stderr, /--jwt-secret must be at least 32 bytes/);
    assert.ok(!weak.stderr.includes(short) && !weak.stdout.includes(short), 'the secret was printed');
  });
});
