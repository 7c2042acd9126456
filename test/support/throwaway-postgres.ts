/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl from /usr/lib/postgresql/<newest>/bin), on a free
 * loopback port and a temporary folder, so a test can stop and restart the database under a running server
 * (outages, drains) without touching the shared server on 5432 that other tests use.
 *
 * PostgreSQL refuses to run as root, so when the test runs as root (CI, .ci/run) every command runs as the
 * `postgres` system user through `runuser`, and the folder is handed to that user. Trust authentication on
 * 127.0.0.1 only; fsync off (nothing here must survive a crash of the machine).
 *
 *   const pg = await startThrowawayPostgres();
 *   startServer(pg.flags) ... await pg.stop('immediate') ... await pg.start() ... await pg.destroy();
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const PG_ROOT = '/usr/lib/postgresql';
const SYSTEM_USER = 'postgres';
/** The cluster's superuser; trust auth, so no password. */
export const THROWAWAY_PG_USER = 'postgres';
/** The database the server is pointed at. */
export const THROWAWAY_PG_DATABASE = 'portcullis';

/** How pg_ctl stops the cluster: fast ends sessions with 57P01 and closes; immediate kills at once. */
export type StopMode = 'smart' | 'fast' | 'immediate';

export interface ThrowawayPostgres {
  port: number;
  /** The data folder (also holds the Unix socket and the server log, `postgres.log`). */
  dir: string;
  /** postgres://postgres@127.0.0.1:<port>/portcullis */
  url: string;
  /** The --database-* flags that point a server at this cluster. */
  flags: string[];
  /** Whether the cluster is running as far as this helper knows. */
  running(): boolean;
  /** Starts the stopped cluster again on the same port and folder; resolves once it accepts connections. */
  start(): Promise<void>;
  stop(mode?: StopMode): Promise<void>;
  /** Stops the cluster (immediate) if it runs and deletes its folder. */
  destroy(): Promise<void>;
  /** The server log, for a failing test's message. */
  log(): Promise<string>;
}

function binDir(): string {
  const versions = existsSync(PG_ROOT) ? readdirSync(PG_ROOT).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => join(PG_ROOT, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (!bin) throw new Error(`no PostgreSQL server binaries under ${PG_ROOT}/<version>/bin (install postgresql)`);
  return bin;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary as the current user, or as `postgres` when the test runs as root. */
async function pgCommand(bin: string, name: string, args: string[]): Promise<string> {
  const file = join(bin, name);
  const [command, argv] = asRoot ? ['runuser', ['-u', SYSTEM_USER, '--', file, ...args]] : [file, args];
  try {
    const { stdout } = await run(command, argv, { timeout: 60_000 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${name} ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', SYSTEM_USER]);
    const { stdout: gid } = await run('id', ['-g', SYSTEM_USER]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const port = await freePort();
  const logFile = join(dir, 'postgres.log');
  const data = join(dir, 'data');
  await pgCommand(bin, 'initdb', ['-D', data, '-U', THROWAWAY_PG_USER, '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  let running = false;
  const start = async () => {
    await pgCommand(bin, 'pg_ctl', ['-D', data, '-o', serverOptions, '-l', logFile, '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = async (mode: StopMode = 'fast') => {
    await pgCommand(bin, 'pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  };
  try {
    await start();
    await pgCommand(bin, 'createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', THROWAWAY_PG_USER, THROWAWAY_PG_DATABASE]);
  } catch (err) {
    if (running) await stop('immediate').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = `postgres://${THROWAWAY_PG_USER}@127.0.0.1:${port}/${THROWAWAY_PG_DATABASE}`;
  return {
    port,
    dir,
    url,
    flags: ['--database-type', 'postgres', '--database-url', url],
    running: () => running,
    start,
    stop,
    async destroy() {
      if (running) await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
    async log() {
      return existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    },
  };
}
