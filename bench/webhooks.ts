/**
 * `npm run bench:webhooks [-- --webhooks N --events M --paced K --stores sqlite,postgres]`: webhook delivery
 * end to end (docs/events.md), in one process: the server (buildApp, its delivery worker with its default
 * options) on a fresh SQLite file and a fresh PostgreSQL database (created for the run and dropped after),
 * and a local keep-alive HTTP receiver. N webhooks (default 10) subscribe to `user.login`; then
 *
 * - burst: M events (default 2,000) are committed as fast as the database takes them, 100 per transaction
 *   (N x M deliveries); deliveries/s from the first commit to the last receipt, and the latency from each
 *   event's commit to each receipt (p50/p99, queueing included);
 * - paced: K events (default 200), one per transaction every 20 ms: the latency from commit to receipt of a
 *   worker that is woken by the commit rather than by its poll (5 s).
 *
 * Duplicates (a delivery id received twice) and losses (an (event, webhook) pair never received) are
 * counted; at least once means zero losses, and duplicates are only expected after a crash.
 * Anchor: the same receiver driven by a bare keep-alive client with the worker's concurrency (64), the HTTP
 * ceiling of this machine for this receiver. Figures are printed, not asserted.
 */
import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseConfig } from '../server/config/parse.ts';
import { buildApp } from '../server/app.ts';
import { recordEvent } from '../server/modules/events/index.ts';
import { Webhook } from '../server/modules/webhooks/index.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { numberArg, stringArg, sleep } from './harness.ts';
import { report, percentile, type Figure } from './report.ts';

const argv = process.argv.slice(2);
const WEBHOOKS = numberArg(argv, 'webhooks', 10);
const EVENTS = numberArg(argv, 'events', 2000);
const PACED = numberArg(argv, 'paced', 200);
const STORES = (stringArg(argv, 'stores') ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const CONCURRENCY = 64;

interface Receipt {
  at: number;
  delivery: string;
  pair: string;
}

interface Sink {
  url: string;
  receipts: Receipt[];
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const receipts: Receipt[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { webhook_id: string; user: { id: string } };
      receipts.push({ at, delivery: String(req.headers['x-service-delivery']), pair: `${body.user.id}|${body.webhook_id}` });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    receipts,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The anchor: `count` POSTs of a delivery-sized body over keep-alive, `CONCURRENCY` at a time. */
async function bareClientRate(url: string, count: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = JSON.stringify({ webhook_id: randomUUID(), event_name: 'user.login', event_description: 'user login', user: { id: 'anchor', email: 'anchor@example.com' }, auth_recipe: 'basic_auth' });
  let next = 0;
  const started = performance.now();
  async function lane(): Promise<void> {
    while (next < count) {
      next += 1;
      await new Promise<void>((resolve, reject) => {
        const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-service-delivery': randomUUID() } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      });
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  agent.destroy();
  return count / ((performance.now() - started) / 1000);
}

function baseFlags(dir: string): string[] {
  return [
    '--database-type', 'sqlite', '--database-url', join(dir, 'portcullis.db'),
    '--url', 'http://127.0.0.1:8080', '--client-id', 'bench-client', '--client-secret', 'bench-client-secret',
    '--admin-secret', 'bench-admin-secret', '--jwt-type', 'HS256', '--jwt-secret', 'bench-jwt-secret-0123456789abcdef-0123456789abcdef-0123456789abcd',
    '--host', '127.0.0.1', '--http-port', '0', '--grpc-port', '0', '--metrics-port', '0', '--log-level', 'silent', '--rate-limit-rps', '0',
    '--webhook-allow-private-addresses=true',
  ];
}

interface Phase {
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  duplicates: number;
  losses: number;
  expected: number;
}

async function runStore(store: 'sqlite' | 'postgres', sink: Sink): Promise<{ burst: Phase; paced: Phase; rssMiB: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-bench-webhooks-'));
  const db = store === 'postgres' ? await createTestDatabase('postgres') : undefined;
  const app = await buildApp(parseConfig([...baseFlags(dir), ...(db?.flags ?? [])]));
  const { storage, clock } = app.deps;
  try {
    const now = clock.now();
    const hooks = Array.from({ length: WEBHOOKS }, (_, i) => ({
      id: randomUUID(), eventName: 'user.login', eventDescription: 'user login', endpoint: `${sink.url}/${i}`, enabled: true, headers: {}, createdAt: now, updatedAt: now,
    }));
    await storage.fork().insertMany(Webhook, hooks);
    // Written past the unit of work, which is what tells the worker's view of subscribed events to reload.
    app.webhooks.webhooksChanged();
    const committedAt = new Map<string, number>();

    async function phase(name: string, count: number, perTransaction: number, pauseMs: number): Promise<Phase> {
      const from = sink.receipts.length;
      const started = performance.now();
      for (let i = 0; i < count; i += perTransaction) {
        const ids: string[] = [];
        await storage.fork().transactional(async (em) => {
          for (let j = i; j < Math.min(count, i + perTransaction); j++) {
            const id = `${name}-${j}`;
            ids.push(id);
            recordEvent(em, 'user.login', { user: { id, email: `${id}@example.com` }, auth_recipe: 'basic_auth' }, clock);
          }
        });
        const at = performance.now();
        for (const id of ids) committedAt.set(id, at);
        if (pauseMs) await sleep(pauseMs);
      }
      const expected = count * WEBHOOKS;
      const deadline = Date.now() + 60_000 + expected * 10;
      while (sink.receipts.length - from < expected && Date.now() < deadline) await sleep(20);
      await app.webhooks.idle();
      await sleep(200);
      const receipts = sink.receipts.slice(from);
      const last = Math.max(...receipts.map((r) => r.at));
      const latencies = receipts.map((r) => r.at - committedAt.get(r.pair.split('|')[0]!)!).sort((a, b) => a - b);
      const deliveries = new Set(receipts.map((r) => r.delivery));
      const pairs = new Set(receipts.map((r) => r.pair));
      return {
        deliveriesPerSecond: receipts.length / ((last - started) / 1000),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        duplicates: receipts.length - deliveries.size,
        losses: expected - pairs.size,
        expected,
      };
    }

    const burst = await phase('burst', EVENTS, 100, 0);
    const paced = await phase('paced', PACED, 1, 20);
    return { burst, paced, rssMiB: process.memoryUsage().rss / 2 ** 20 };
  } finally {
    await app.close();
    await db?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

const sink = await startSink();
const anchor = await bareClientRate(sink.url, 5000);
sink.receipts.length = 0;
console.log(`receiver ceiling (bare keep-alive client, ${CONCURRENCY} at a time): ${Math.round(anchor)} requests/s`);
const figures: Figure[] = [];
for (const store of STORES) {
  const { burst, paced, rssMiB } = await runStore(store, sink);
  console.log(store, JSON.stringify({ burst, paced, rssMiB: Math.round(rssMiB) }));
  const lossDetail = (p: Phase) => `${p.expected} deliveries, ${p.duplicates} duplicates, ${p.losses} lost; RSS ${Math.round(rssMiB)} MiB`;
  figures.push({
    figure: `webhook deliveries/s, burst of ${EVENTS} events x ${WEBHOOKS} webhooks (${store})`,
    ours: burst.deliveriesPerSecond, anchorName: 'bare keep-alive client', anchor, unit: '/s',
    target: store === 'postgres' ? '>= 1,000/s, 0 lost' : '0 lost',
    met: burst.losses === 0 && (store !== 'postgres' || burst.deliveriesPerSecond >= 1000),
    detail: `commit to receipt p50 ${burst.p50.toFixed(0)} ms, p99 ${burst.p99.toFixed(0)} ms (queueing included); ${lossDetail(burst)}`,
  });
  figures.push({
    figure: `webhook commit to receipt p99, ${PACED} paced events x ${WEBHOOKS} webhooks (${store})`,
    ours: paced.p99, anchorName: 'poll interval', anchor: 5000, unit: 'ms',
    target: '< poll interval, 0 lost', met: paced.losses === 0 && paced.p99 < 5000,
    detail: `p50 ${paced.p50.toFixed(0)} ms; ${lossDetail(paced)}`,
  });
}
await sink.close();
report('webhooks', figures);
