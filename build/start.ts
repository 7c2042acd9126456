/**
 * `npm start [-- <more flags>]`: a local server with no setup. The first run generates the instance
 * secrets (admin secret, client id, client secret, JWT secret) with crypto randomness and keeps them in
 * ./data/secrets.json (folder 0700, file 0600); later runs reuse them, so sessions and tokens survive a
 * restart. Then it runs server/main.ts on this Node (24) with SQLite in ./data, forwarding extra arguments
 * (they come last, so they override ours) and SIGINT/SIGTERM/SIGHUP, and exits as the server exits.
 * It prints the URL and where the admin secret is kept, never the secret itself.
 *
 * The secrets reach the server as `--admin-secret file:data/admin-secret` and so on, one 0600 file each:
 * a command-line value is readable by every local user in the process list (ASVS 4.0 6.4.1).
 *
 * Token signing: a relying party can verify an ID token only with a public
 * key from /.well-known/jwks.json, and an HMAC secret is never published there. So a new data folder gets an
 * ES256 key, a P-256 private key in PKCS#8 PEM at data/jwt-private-key.pem (0600), passed as
 * `--jwt-type ES256 --jwt-private-key data/jwt-private-key.pem` (a path, never the key). The rule is one
 * line: data/jwt-private-key.pem present means ES256 with it, absent means HS256 with the JWT secret. The
 * key is written before secrets.json, so only a folder made by an older start (before this rule) lacks it:
 * such a folder keeps HS256, because switching would end every session and token it has issued, and
 * whether any is still outstanding cannot be known from here. To move it to ES256, put a P-256 PKCS#8 key
 * at that path (or pass --jwt-type and --jwt-private-key, which win over ours). The JWT secret is passed
 * in both cases: with ES256 it keys the encryption of secrets at rest (without
 * --encryption-key, secrets at rest are keyed by --jwt-secret), so that encryption never changes with the signing key.
 * npm runs a script under `sh -c` and forwards SIGTERM/SIGINT to that shell only: dash dies of SIGTERM
 * without passing it on (this script was left orphaned with the server running) and waits out SIGINT. So
 * package.json starts this script with `exec`, replacing the shell, and npm's signals land here; should a
 * shell still sit in between, this script stops the server when its parent goes away (ppid changes).
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { runtimeFlags } from './runtime-flags.ts';
import { UI_APPS, UI_DIR, UI_MANIFEST } from './ui-apps.ts';
import { nodeVersionProblem } from '../server/node-version.ts';

const SERVER_ENTRY = join(import.meta.dirname, '..', 'server', 'main.ts');

export interface LocalSecrets {
  adminSecret: string;
  clientId: string;
  clientSecret: string;
  jwtSecret: string;
}

const KEYS = ['adminSecret', 'clientId', 'clientSecret', 'jwtSecret'] as const;

function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Reads the secrets file, or creates it (0600, never overwriting an existing file) on first run. */
export function loadOrCreateSecrets(dataDir: string): { file: string; secrets: LocalSecrets; created: boolean } {
  const file = join(dataDir, 'secrets.json');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (existsSync(file)) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<string, unknown>>;
    const bad = KEYS.filter((key) => typeof parsed[key] !== 'string' || parsed[key] === '');
    if (bad.length > 0) throw new Error(`${file} lacks ${bad.join(', ')}: fix it or move it away to generate new secrets`);
    chmodSync(file, 0o600);
    return { file, secrets: parsed as unknown as LocalSecrets, created: false };
  }
  const secrets: LocalSecrets = {
    adminSecret: randomSecret(),
    clientId: randomUUID(),
    clientSecret: randomSecret(),
    jwtSecret: randomSecret(),
  };
  // Written beside the target and renamed into place, so an interrupted first run leaves no half file;
  // 'wx' refuses to follow a file planted at the temporary name.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, file);
  return { file, secrets, created: true };
}

/** The secret flags of the local server and the key of secrets.json each one reads. */
export const SECRET_FLAGS = { 'admin-secret': 'adminSecret', 'client-secret': 'clientSecret', 'jwt-secret': 'jwtSecret' } as const;

/**
 * Writes one 0600 file per secret flag beside secrets.json (data/admin-secret, ...), rewritten only when its
 * content differs, through a temporary file renamed into place; returns the paths by flag name.
 */
export function writeSecretFiles(dataDir: string, secrets: LocalSecrets): Record<keyof typeof SECRET_FLAGS, string> {
  const paths = {} as Record<keyof typeof SECRET_FLAGS, string>;
  for (const [flag, key] of Object.entries(SECRET_FLAGS) as Array<[keyof typeof SECRET_FLAGS, keyof LocalSecrets]>) {
    const file = join(dataDir, flag);
    paths[flag] = file;
    if (existsSync(file) && readFileSync(file, 'utf8') === secrets[key]) {
      chmodSync(file, 0o600);
      continue;
    }
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, secrets[key], { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  }
  return paths;
}

/** The signing key of a data folder: the file name under data/ and what it means (see the header). */
export const SIGNING_KEY_FILE = 'jwt-private-key.pem';

export type LocalSigning = { alg: 'ES256'; keyFile: string } | { alg: 'HS256' };

/**
 * Decides the signing algorithm of the data folder and creates the ES256 key when the folder is new (no
 * secrets.json yet). Must run before loadOrCreateSecrets, so that a first run interrupted between the two
 * files never leaves a new folder without its key (which would make it HS256 for good).
 */
export function loadOrCreateSigningKey(dataDir: string): LocalSigning {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const keyFile = join(dataDir, SIGNING_KEY_FILE);
  if (existsSync(keyFile)) {
    chmodSync(keyFile, 0o600);
    return { alg: 'ES256', keyFile };
  }
  if (existsSync(join(dataDir, 'secrets.json'))) return { alg: 'HS256' };
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' });
  // As for secrets.json: a temporary file ('wx' refuses a planted one) renamed into place.
  const temporary = `${keyFile}.${process.pid}.tmp`;
  writeFileSync(temporary, pem, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, keyFile);
  return { alg: 'ES256', keyFile };
}

/** The value of `--name value` or `--name=value` in args (the last one wins, as in the server). */
export function flagValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  args.forEach((arg, index) => {
    if (arg === `--${name}`) value = args[index + 1];
    else if (arg.startsWith(`--${name}=`)) value = arg.slice(name.length + 3);
  });
  return value;
}

/** Flags of the local server; the URL follows --http-port when only the port is overridden. */
export function localFlags(dataDir: string, clientId: string, signing: LocalSigning, extra: readonly string[]): { url: string; args: string[] } {
  const port = flagValue(extra, 'http-port') ?? '8080';
  const url = flagValue(extra, 'url') ?? `http://localhost:${port}`;
  const args = [
    '--database-type', 'sqlite',
    '--database-url', join(dataDir, 'portcullis.db'),
    '--url', url,
    '--client-id', clientId,
    '--client-secret', `file:${join(dataDir, 'client-secret')}`,
    '--admin-secret', `file:${join(dataDir, 'admin-secret')}`,
    '--jwt-type', signing.alg,
    ...(signing.alg === 'ES256' ? ['--jwt-private-key', signing.keyFile] : []),
    '--jwt-secret', `file:${join(dataDir, 'jwt-secret')}`,
    ...extra,
  ];
  return { url, args };
}

const UI_BUILD_SCRIPT = join(import.meta.dirname, 'ui.ts');

/**
 * Runs a build script in a child process on this Node and resolves once it has exited 0. Vite and its
 * bundler take about a gigabyte while they build; in a child that memory goes back when the build ends,
 * where in this supervisor (which lives as long as the server) it stayed for good.
 */
export function buildInChild(script: string, args: readonly string[] = []): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${relative(process.cwd(), script)} ended with ${signal ?? `exit code ${code}`}`));
    });
  });
}

/**
 * The frontends are served from dist/ui (build/ui.ts). A fresh clone has none, and an edited source makes
 * it stale, so `npm start` builds them first in either case (a few seconds, in a child process); otherwise
 * it starts at once.
 */
async function ensureUiBuilt(): Promise<void> {
  const manifest = join(UI_DIR, UI_MANIFEST);
  const builtAt = existsSync(manifest) ? statSync(manifest).mtimeMs : 0;
  const root = join(import.meta.dirname, '..');
  const sources = [...UI_APPS.map((app) => app.source), 'ui-shared', 'common'];
  const newest = Math.max(
    ...sources.flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
    ),
  );
  if (builtAt >= newest) return;
  console.log('building the login UI and the console (dist/ui)…');
  await buildInChild(UI_BUILD_SCRIPT);
}

/** Flags that ask the server to print something and exit: no secrets, UI build or banner for those. */
const INFO_FLAGS = new Set(['--help', '-h', '--version', '-v']);

async function main(extra: string[]): Promise<void> {
  const tooOld = nodeVersionProblem(process.version);
  if (tooOld) {
    console.error(tooOld);
    process.exit(1);
  }
  if (extra.some((arg) => INFO_FLAGS.has(arg))) {
    // `npm start -- --help`: the server's own answer, and nothing above it.
    const info = spawn(process.execPath, [SERVER_ENTRY, ...extra], { stdio: 'inherit' });
    info.on('exit', (code) => process.exit(code ?? 1));
    return;
  }
  const dataDir = resolve('data');
  const shownDir = relative(process.cwd(), dataDir) || '.';
  const signing = loadOrCreateSigningKey(dataDir);
  const { file, secrets, created } = loadOrCreateSecrets(dataDir);
  writeSecretFiles(dataDir, secrets);
  const localSigning: LocalSigning = signing.alg === 'ES256' ? { alg: 'ES256', keyFile: join(shownDir, SIGNING_KEY_FILE) } : signing;
  const { url, args } = localFlags(shownDir, secrets.clientId, localSigning, extra);
  await ensureUiBuilt();
  console.log(`Portcullis at ${url}`);
  console.log(`admin secret ${created ? 'generated in' : 'kept in'} ${relative(process.cwd(), file)} (with client id, client secret and JWT secret)`);
  console.log(signing.alg === 'ES256'
    ? `tokens signed with ES256, key in ${join(shownDir, SIGNING_KEY_FILE)} (public key at ${url}/.well-known/jwks.json)`
    : `tokens signed with HS256 (this data folder predates the ES256 key; see build/start.ts to move it)`);

  // The same Node flags as the single executable (sea-config.json execArgv).
  const child = spawn(process.execPath, [...runtimeFlags(), SERVER_ENTRY, ...args], { stdio: 'inherit' });
  const stopServer = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  // The server shuts down gracefully on SIGTERM and SIGINT; a hang-up (terminal closed) stops it the same way.
  process.on('SIGINT', () => stopServer('SIGINT'));
  process.on('SIGTERM', () => stopServer('SIGTERM'));
  process.on('SIGHUP', () => stopServer('SIGTERM'));
  // Orphaned (npm's `sh -c` killed by a forwarded signal): nobody is left to stop the server but us.
  const parent = process.ppid;
  const orphanWatch = setInterval(() => {
    if (process.ppid !== parent) stopServer('SIGTERM');
  }, 200);
  child.on('exit', () => clearInterval(orphanWatch));
  child.on('error', (err) => {
    console.error(`cannot start the server: ${err.message}`);
    process.exit(1);
  });
  // A server killed by a signal exits 128 + its number, as a shell would report it.
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  main(process.argv.slice(2)).catch((err: Error) => {
    console.error(`npm start failed: ${err.message}`);
    process.exit(1);
  });
}
