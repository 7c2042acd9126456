/**
 * Debian's HAProxy in front of a fleet, started by the test with its own configuration on free loopback ports
 * (the system service is never used). The settings are those of docs/reverse-proxy.md#running-a-fleet: health
 * checks on /readyz every 500 ms with fall 2 (a slow answer gets 2 s), so that a drain delay of 2 s outlasts
 * inter x fall; connection failures retried on another server (`retry-on conn-failure`, `option redispatch`);
 * keep-alive to the servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../sea/executable.ts';

export const HEALTH_CHECK_INTERVAL_MS = 500;
export const HEALTH_CHECK_FALL = 2;
export const HEALTH_CHECK_RISE = 2;

export interface Haproxy {
  port: number;
  baseUrl: string;
  /** UP, DOWN, MAINT... of each server by name, from the stats page. */
  serverStates(): Promise<Record<string, string>>;
  /** Waits until HAProxy sees each named server in the given state. */
  waitFor(state: 'UP' | 'DOWN', names: string[], timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function haproxyConfig(port: number, statsPort: number, servers: { name: string; port: number }[]): string {
  return `global
    maxconn 2000

defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout http-keep-alive 10s
    retries 3
    retry-on conn-failure
    option redispatch 1

frontend portcullis
    bind 127.0.0.1:${port}
    http-request del-header X-Forwarded-For
    option forwardfor
    default_backend portcullis

backend portcullis
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    # A slow answer under load is not a failed check; a 503 from /readyz is, at once.
    timeout check 2s
    default-server inter ${HEALTH_CHECK_INTERVAL_MS}ms fall ${HEALTH_CHECK_FALL} rise ${HEALTH_CHECK_RISE}
${servers.map((server) => `    server ${server.name} 127.0.0.1:${server.port} check`).join('\n')}

listen stats
    bind 127.0.0.1:${statsPort}
    stats enable
    stats uri /stats
`;
}

/** `port` is the public one, known before the servers start (their --url names it). */
export async function startHaproxy(servers: { name: string; port: number }[], port: number): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-haproxy-'));
  const statsPort = await freePort();
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, statsPort, servers));
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.on('error', (err) => (output += `${err.message}: apt-get install haproxy`));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));

  async function serverStates(): Promise<Record<string, string>> {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const states: Record<string, string> = {};
    for (const line of csv.split('\n')) {
      const [proxy, name, ...fields] = line.split(',');
      // The 18th column (status) of the stats CSV, pxname being the first (HAProxy management guide 9.1).
      if (proxy === 'portcullis' && name && name !== 'FRONTEND' && name !== 'BACKEND') states[name] = fields[15]!;
    }
    return states;
  }

  const haproxy: Haproxy = {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    serverStates,
    async waitFor(state, names, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const states = await serverStates().catch(() => ({}) as Record<string, string>);
        if (names.every((name) => states[name]?.startsWith(state))) return;
        if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
        if (Date.now() > deadline) throw new Error(`haproxy did not see ${names.join(', ')} ${state}: ${JSON.stringify(states)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  // Listening once the stats page answers.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy did not start: ${output}`);
    if (await serverStates().then(() => true, () => false)) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return haproxy;
}
