/**
 * Runs the single executable (dist/portcullis) as a child process, the way an operator would: copied alone
 * into an empty folder, on a fresh SQLite file, on free ports. Shared by test/sea/sea.test.ts and
 * bench/startup.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const EXECUTABLE = join(import.meta.dirname, '..', '..', 'dist', 'portcullis');

/** Throws the instruction to build when the executable is missing (so the test fails, it is not skipped). */
export function requireExecutable(): string {
  if (!existsSync(EXECUTABLE)) {
    throw new Error('dist/portcullis is missing: run `npm run build && npm run sea` (npm test does both)');
  }
  return EXECUTABLE;
}

/**
 * Copies the executable (dist/portcullis unless another build is named) into a new empty temporary folder:
 * no node_modules, no sources beside it, and safe from a concurrent rebuild of dist/.
 */
export function isolatedCopy(source: string = requireExecutable()): { source: string; dir: string; executable: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-sea-'));
  const executable = join(dir, 'portcullis');
  copyFileSync(source, executable);
  return { source, dir, executable, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A port the OS says is free now (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface Ports {
  http: number;
  grpc: number;
  metrics: number;
}

export async function freePorts(): Promise<Ports> {
  return { http: await freePort(), grpc: await freePort(), metrics: await freePort() };
}

export const SECRETS = {
  clientSecret: 'sea-client-secret-7f3a',
  adminSecret: 'sea-admin-secret-91c2',
  jwtSecret: 'sea-jwt-secret-4d8e-0123456789abcdef-0123456789ab',
};

/** Flags of a server on the given ports with its SQLite file in `dir`; `extra` comes last and wins. */
export function serverFlags(dir: string, ports: Ports, extra: string[] = []): string[] {
  return [
    '--database-type', 'sqlite',
    '--database-url', join(dir, 'portcullis.db'),
    '--url', `http://127.0.0.1:${ports.http}`,
    '--client-id', 'sea-client',
    '--client-secret', SECRETS.clientSecret,
    '--admin-secret', SECRETS.adminSecret,
    '--jwt-type', 'HS256',
    '--jwt-secret', SECRETS.jwtSecret,
    '--host', '127.0.0.1',
    '--http-port', String(ports.http),
    '--grpc-port', String(ports.grpc),
    '--metrics-host', '127.0.0.1',
    '--metrics-port', String(ports.metrics),
    // No load balancer watches a test's server: SIGTERM closes it without the drain delay
    // (docs/reverse-proxy.md#stopping-an-instance); the drain and fleet tests set their own.
    '--shutdown-drain-delay', '0',
    ...extra,
  ];
}

export interface Running {
  child: ChildProcess;
  /** Everything the process wrote so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the executable with `args`, working directory `cwd`, no stdin, output captured. */
export function run(executable: string, args: string[], cwd: string): Running {
  const child = spawn(executable, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => ({ stdout, stderr }), exited };
}

/**
 * Polls GET url until it answers 200; resolves with the milliseconds since `since` (performance.now()).
 * Fails at once if the process exits first, and after `timeoutMs` otherwise, quoting the process output.
 */
export async function waitFor200(url: string, running: Running, since: number, timeoutMs = 20_000): Promise<number> {
  let ended = false;
  void running.exited.then(() => (ended = true));
  while (performance.now() - since < timeoutMs) {
    if (ended) break;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const { stdout, stderr } = running.output();
  throw new Error(`${url} did not answer 200 (${ended ? 'process exited' : `timeout ${timeoutMs} ms`})\nstdout: ${stdout}\nstderr: ${stderr}`);
}

/** Resident set size of a live process in MiB, from /proc (Linux). */
export function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** SIGTERM, then SIGKILL if it is still alive after `graceMs`; resolves with how it ended. */
export async function stop(running: Running, graceMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (running.child.exitCode !== null || running.child.signalCode !== null) return running.exited;
  running.child.kill('SIGTERM');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), graceMs);
  const result = await running.exited;
  clearTimeout(timer);
  return result;
}

/**
 * What went into the executable's main script, from the build's metafile (dist/portcullis.meta.json): the
 * main script is minified and names no module path, so searching its text for a package proves nothing.
 * `bundled(name)` lists the package's files in the main script; `separated(name)` whether the main script
 * loads it from its own asset instead (build/driver-bundles.ts).
 */
export function mainScriptInputs(): { bundled(name: string): string[]; separated(name: string): boolean } {
  const metafile = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'dist', 'portcullis.meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
  const inputs = Object.keys(metafile.inputs);
  return {
    bundled: (name) => inputs.filter((path) => path.includes(`node_modules/${name}/`)),
    separated: (name) => inputs.includes(`separate-driver:${name}`),
  };
}
