/**
 * Configuration by flags only (README "Configuration") and the startup refusals: each exits
 * non-zero with a one-line message naming the flag. Runs the real entry point in a child process.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_FLAGS } from '../../server/config/flags.ts';
import { parseConfig } from '../../server/config/parse.ts';

const MAIN = join(import.meta.dirname, '../../server/main.ts');
const dir = mkdtempSync(join(tmpdir(), 'portcullis-flags-'));

const GOOD: Record<string, string> = {
  'database-type': 'sqlite',
  'database-url': join(dir, 'p.db'),
  url: 'http://127.0.0.1:8080',
  'client-id': 'a',
  'client-secret': 'b',
  'admin-secret': 's',
  'jwt-type': 'HS256',
  'jwt-secret': 'k'.repeat(32),
};

function run(args: string[]) {
  const res = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { status: res.status, stderr: res.stderr.trim(), stdout: res.stdout };
}

function argsWith(changes: Record<string, string | null>, extra: string[] = []): string[] {
  const merged = { ...GOOD, ...changes };
  const args: string[] = [];
  for (const [name, value] of Object.entries(merged)) if (value !== null) args.push(`--${name}`, value);
  return [...args, ...extra];
}

const refusals: Array<[string, string[], RegExp]> = [
  ['missing admin secret', argsWith({ 'admin-secret': null }), /--admin-secret is required and must not be empty/],
  ['empty admin secret', argsWith({ 'admin-secret': '' }), /--admin-secret is required and must not be empty/],
  ['missing url', argsWith({ url: null }), /--url is required/],
  ['relative url', argsWith({ url: '/auth' }), /--url must be an absolute http\(s\) URL/],
  ['url with user info', argsWith({ url: 'http://u:p@example.com' }), /--url must not carry user info/],
  ['ftp url', argsWith({ url: 'ftp://example.com' }), /--url must use http or https/],
  ['missing client id', argsWith({ 'client-id': null }), /--client-id is required/],
  ['missing client secret', argsWith({ 'client-secret': null }), /--client-secret is required/],
  ['no database connection', argsWith({ 'database-url': null }), /--database-url is required/],
  ['unknown database type', argsWith({ 'database-type': 'oracle' }), /--database-type must be one of/],
  ['RS256 without encryption key or jwt secret', argsWith({ 'jwt-type': 'RS256', 'jwt-secret': null }, ['--jwt-private-key', '-----BEGIN PRIVATE KEY-----\\nMC4=\\n-----END PRIVATE KEY-----']), /--encryption-key is required for --jwt-type RS256/],
  ['ES256 without private key', argsWith({ 'jwt-type': 'ES256', 'jwt-secret': null }), /--jwt-private-key is required/],
  ['HS256 without secret', argsWith({ 'jwt-secret': null }), /--jwt-secret is required for --jwt-type HS256/],
  ['HS256 with a 31-byte secret', argsWith({ 'jwt-secret': 'k'.repeat(31) }), /--jwt-secret must be at least 32 bytes for --jwt-type HS256/],
  ['HS512 with a 63-byte secret', argsWith({ 'jwt-type': 'HS512', 'jwt-secret': 'k'.repeat(63) }), /--jwt-secret must be at least 64 bytes for --jwt-type HS512/],
  ['negative client secret rotation grace', argsWith({}, ['--client-secret-rotation-grace', '-1']), /--client-secret-rotation-grace takes a whole number/],
  ['equal http and metrics ports', argsWith({}, ['--http-port', '9000', '--metrics-port', '9000']), /--http-port and --metrics-port must differ/],
  ['v1 underscore flag', argsWith({}, ['--database_type', 'sqlite']), /v1-style flag name.*--database-type/],
  ['unknown flag', argsWith({}, ['--no-such-flag']), /unknown option '--no-such-flag'/],
  ['bad boolean', argsWith({}, ['--enable-signup=maybe']), /--enable-signup takes true or false/],
  // A flow switched on without the channel it sends on would refuse every signup or sign-in it governs.
  ['email verification without SMTP', argsWith({}, ['--enable-email-verification=true']), /--enable-email-verification needs outgoing email, which is not configured: set --smtp-host/],
  ['email verification without a sender address', argsWith({}, ['--enable-email-verification', '--smtp-host', 'mail.example.com']), /--enable-email-verification needs outgoing email, which is not configured: set --smtp-sender-email/],
  ['magic link login without SMTP', argsWith({}, ['--enable-magic-link-login']), /--enable-magic-link-login needs outgoing email, which is not configured: set --smtp-host/],
  ['phone verification without SMS', argsWith({}, ['--enable-phone-verification=true', '--twilio-account-sid', 'AC1']), /--enable-phone-verification needs SMS, which is not configured: set --twilio-api-key, --twilio-api-secret, --twilio-sender/],
  ['unreachable database', argsWith({ 'database-type': 'postgres', 'database-url': 'postgres://nobody:hunter2@127.0.0.1:1/none' }), /cannot open the database/],
];

describe('startup refusals', () => {
  for (const [name, args, message] of refusals) {
    test(name, () => {
      const { status, stderr } = run(args);
      assert.notEqual(status, 0, `expected a non-zero exit for ${name}`);
      assert.match(stderr, message);
      assert.equal(stderr.split('\n').length, 1, `expected one line, got:\n${stderr}`);
      assert.ok(!stderr.includes('hunter2'), 'a refusal must not print a password');
    });
  }
});

describe('flows that send mail or texts', () => {
  test('start when their channel is configured', () => {
    const smtp = ['--smtp-host', 'mail.example.com', '--smtp-sender-email', 'auth@example.com'];
    const sms = ['--twilio-account-sid', 'AC1', '--twilio-api-key', 'key', '--twilio-api-secret', 'secret', '--twilio-sender', '+15550000000'];
    const config = parseConfig(argsWith({}, ['--enable-email-verification', '--enable-magic-link-login', '--enable-phone-verification', ...smtp, ...sms]));
    assert.equal(config.enableEmailVerification, true);
    assert.equal(config.enableMagicLinkLogin, true);
    assert.equal(config.enablePhoneVerification, true);
  });

  test('--help says which channel each one needs', () => {
    const { stdout } = run(['--help']);
    assert.match(stdout, /--enable-email-verification \[bool\]\s+.*needs --smtp-host and --smtp-sender-email/);
    assert.match(stdout, /--enable-magic-link-login \[bool\]\s+.*needs --smtp-host and --smtp-sender-email/);
    assert.match(stdout, /--enable-phone-verification \[bool\]\s+.*needs the --twilio-\* flags/);
  });
});

describe('env files', () => {
  // Checked on the parser: when the server runs from source, Node itself intercepts --env-file before our code
  // sees it; the single executable passes it through and the SEA test checks the same refusal end to end.
  test('an env-file flag is refused with a message', () => {
    for (const flag of ['--env-file', '--envfile', '--env-file=.env']) {
      assert.throws(() => parseConfig(argsWith({}, flag.includes('=') ? [flag] : [flag, '.env'])), /is not supported: configuration comes from command-line flags only/);
    }
  });
});

describe('--help', () => {
  test('lists every flag with its default', () => {
    const { status, stdout } = run(['--help']);
    assert.equal(status, 0);
    for (const flag of ALL_FLAGS) {
      assert.ok(stdout.includes(`--${flag.name}`), `--help is missing --${flag.name}`);
    }
    assert.match(stdout, /--http-port <number>\s+main HTTP port \(default: 8080\)/);
    assert.match(stdout, /--allowed-origins <list>.*\(default: \*\)/);
    assert.match(stdout, /--enable-signup \[bool\].*\(default: true\)/);
  });

  test('names each default once, and no empty one', () => {
    const { stdout } = run(['--help']);
    // commander wraps long help over lines; one flag's text runs until the next flag.
    const entries = stdout.split(/\n(?=\s+-)/);
    for (const entry of entries) {
      assert.ok((entry.match(/\(default:/g) ?? []).length <= 1, `a default named twice:\n${entry}`);
      assert.doesNotMatch(entry, /\(default: (""|)\)/, `an empty default:\n${entry}`);
    }
    assert.match(stdout, /--dns-servers <list>\s+.*\(default: the system resolver\)/);
    assert.match(stdout, /--organization-logo <value>\s+logo URL shown in the UI\n/);
  });
});

describe('key refusals', () => {
  test('a private key that does not fit --jwt-type exits non-zero naming the flag', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const { status, stderr } = run(argsWith({ 'jwt-type': 'RS256', 'jwt-secret': null }, ['--jwt-private-key', ec, '--encryption-key', 'e']));
    assert.notEqual(status, 0);
    assert.match(stderr, /--jwt-private-key is not a RS256 key/);
  });
});
