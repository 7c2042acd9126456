/**
 * Real server processes (`node server/main.ts`): for the crash and multi-instance webhook tests, and for
 * tests that judge the server's own event loop apart from the test's (the hostile-input stall check).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePorts, serverFlags, SECRETS, type Ports } from '../sea/executable.ts';
import { adminClient } from './admin-client.ts';

export { SECRETS };

const MAIN = join(import.meta.dirname, '..', '..', 'server', 'main.ts');

export interface ServerProcess {
  child: ChildProcess;
  ports: Ports;
  baseUrl: string;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
  stderr(): string;
}

export async function spawnServer(dir: string, extra: string[]): Promise<ServerProcess> {
  const ports = await freePorts();
  const child = spawn(process.execPath, [MAIN, ...serverFlags(dir, ports, ['--log-level', 'warn', '--rate-limit-rps', '0', ...extra])], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const baseUrl = `http://127.0.0.1:${ports.http}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, ports, baseUrl, exited, stderr: () => err };
}

/** A super-admin call with the spawned server's secret; it must answer 200 (test/support/admin-client.ts). */
export function adminCall(server: ServerProcess, name: string, body: unknown): Promise<any> {
  return adminClient(server, { secret: SECRETS.adminSecret }).ok(name, body);
}

export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  await server.exited;
}

/**
 * The longest the server's event loop was held since the previous call, in ms: prom-client's
 * `nodejs_eventloop_lag_max_seconds` (perf_hooks.monitorEventLoopDelay), which resets on every scrape.
 */
export async function eventLoopMaxLagMs(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${server.ports.metrics}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith('nodejs_eventloop_lag_max_seconds '));
  if (!line) throw new Error('no nodejs_eventloop_lag_max_seconds in /metrics');
  return Number(line.split(' ')[1]) * 1000;
}
