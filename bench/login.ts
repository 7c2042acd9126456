/**
 * `npm run bench:login [-- --seconds S --concurrency C]`: login throughput of the single executable on
 * SQLite. Starts dist/portcullis alone in an empty folder, signs up one user, then keeps C logins in flight
 * for S seconds (REST POST /v1/login over loopback keep-alive connections) and prints requests per second,
 * p50/p99 latency, the error count and the server's resident memory at the end. Figures are printed, not
 * asserted. argon2id at OWASP parameters dominates a login (stack-notes: about one core's worth of hashes).
 */
import { Agent, request } from 'node:http';
import { EXECUTABLE, freePorts, isolatedCopy, rssMiB, run, serverFlags, stop, waitFor200 } from '../test/sea/executable.ts';

function numberArg(argv: readonly string[], name: string, fallback: number): number {
  const index = argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}

function post(agent: Agent, port: number, path: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}`, 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const seconds = numberArg(argv, 'seconds', 10);
  const concurrency = numberArg(argv, 'concurrency', 16);
  const copy = isolatedCopy();
  const ports = await freePorts();
  // The per-IP limit (default 30 rps) would measure the limiter, not logins: every request here is one IP.
  const running = run(copy.executable, serverFlags(copy.dir, ports, ['--log-level', 'warn', '--rate-limit-rps', '0']), copy.dir);
  try {
    await waitFor200(`http://127.0.0.1:${ports.http}/healthz`, running, performance.now());
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const credentials = { email: 'bench@example.com', password: 'B3nch!mark' };
    const created = await post(agent, ports.http, '/v1/signup', { ...credentials, confirm_password: credentials.password });
    if (created !== 200) throw new Error(`signup answered ${created}`);
    const latencies: number[] = [];
    let errors = 0;
    const deadline = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const status = await post(agent, ports.http, '/v1/login', credentials).catch(() => 0);
        if (status === 200) latencies.push(performance.now() - started);
        else errors++;
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsed = (performance.now() - began) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(`executable: ${EXECUTABLE}`);
    console.log(`logins: ${latencies.length} in ${elapsed.toFixed(1)} s with ${concurrency} in flight`);
    console.log(`throughput: ${(latencies.length / elapsed).toFixed(1)} logins/s`);
    console.log(`latency: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
    console.log(`errors: ${errors}`);
    console.log(`server RSS after the run: ${rssMiB(running.child.pid!).toFixed(0)} MiB`);
    agent.destroy();
  } finally {
    await stop(running);
    copy.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
