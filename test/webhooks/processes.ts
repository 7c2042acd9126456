/** Real server processes (`node server/main.ts`) for the crash and multi-instance webhook tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePorts, serverFlags, SECRETS, type Ports } from '../sea/executable.ts';

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

export async function adminCall(server: ServerProcess, name: string, body: unknown): Promise<any> {
  const res = await fetch(`${server.baseUrl}/v1/admin/${name}`, {
    method: 'POST',
    headers: { 'x-service-admin-secret': SECRETS.adminSecret, origin: server.baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  await server.exited;
}
