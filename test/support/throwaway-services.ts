/**
 * Throwaway servers a test starts and stops itself, on free loopback ports, so that it may kill, restart and
 * overload them without touching the shared PostgreSQL and Redis the other tests use:
 *
 * - PostgreSQL: a new cluster (initdb, trust authentication, fsync off) in a temporary folder, run by pg_ctl
 *   from the newest /usr/lib/postgresql/<major>/bin. PostgreSQL refuses to run as root, so as root the
 *   cluster belongs to the `postgres` account and its commands run through runuser.
 * - Redis: redis-server in the foreground, nothing saved to disk.
 *
 * Either can be halted and resumed on the same port and data (an outage the test ends), then stopped for good.
 * A missing binary is an error that says what to install (the test fails, it is not skipped).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../sea/executable.ts';

const run = promisify(execFile);

export interface ThrowawayPostgres {
  port: number;
  /** The --database-* flags that point a server at this cluster's database `portcullis`. */
  flags: string[];
  /** postgres://postgres@127.0.0.1:<port>/portcullis */
  url: string;
  /** Stops the cluster, keeping its data (pg_ctl `fast`: sessions end with 57P01, then the port closes). */
  halt(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts the halted cluster again on the same port and data; resolves once it accepts connections. */
  resume(): Promise<void>;
  /** Stops the cluster for good and deletes its folder. */
  stop(): Promise<void>;
}

export interface ThrowawayRedis {
  port: number;
  url: string;
  /** Kills redis-server (its counters and subscriptions are lost, as nothing is saved). */
  halt(): Promise<void>;
  /** Starts redis-server again on the same port; resolves once it accepts connections. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = majors.map((major) => join(root, major, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: apt-get install postgresql');
  return bin;
}

/** Runs a PostgreSQL command as the account that owns the cluster (never root). */
async function asClusterOwner(command: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  await run(file, argv, { cwd: tmpdir() });
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const { uid, gid } = await postgresAccount();
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  await asClusterOwner(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'", '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=300'];
  const start = () => asClusterOwner(join(bin, 'pg_ctl'), ['-D', data, '-o', options.join(' '), '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  await start();
  await asClusterOwner(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'portcullis']);
  const url = `postgres://postgres@127.0.0.1:${port}/portcullis`;
  return {
    port,
    url,
    flags: ['--database-type', 'postgres', '--database-url', url],
    halt: (mode = 'fast') => asClusterOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']),
    resume: start,
    async stop() {
      await asClusterOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresAccount(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
    throw new Error('running as root needs a `postgres` account to own the throwaway cluster: apt-get install postgresql');
  });
  const gid = (await run('id', ['-g', 'postgres'])).stdout;
  return { uid: Number(stdout.trim()), gid: Number(gid.trim()) };
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  let server = await spawnRedis(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    halt: () => server.kill(),
    async resume() {
      server = await spawnRedis(port);
    },
    stop: () => server.kill(),
  };
}

/** redis-server in the foreground on `port`, once it accepts connections. */
async function spawnRedis(port: number): Promise<{ kill(): Promise<void> }> {
  let child: ChildProcess;
  try {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    throw new Error('redis-server is missing: apt-get install redis-server');
  }
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.on('error', () => undefined);
  const deadline = Date.now() + 10_000;
  while (!output.includes('Ready to accept connections')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start (is it installed? apt-get install redis-server): ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
