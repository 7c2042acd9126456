/**
 * A webhook receiver for tests: a real HTTP server on loopback that records every request (headers, raw
 * body) and answers with what the test's handler says (default 200).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, any>;
}

export type Handler = (req: Received) => Promise<{ status: number; body?: string }> | { status: number; body?: string };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  handler: Handler;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export function validSignature(secret: string, body: string, signature: unknown): boolean {
  return signature === createHmac('sha256', secret).update(body).digest('hex');
}

export async function startReceiver(handler: Handler = () => ({ status: 200, body: 'ok' }), port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const receiver = { received, handler } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // recorded as is
      }
      const entry = { path: req.url ?? '/', headers: req.headers, body, json };
      received.push(entry);
      for (const wake of waiters.splice(0)) wake();
      const answer = await receiver.handler(entry);
      if (res.destroyed) return;
      res.writeHead(answer.status, { 'content-type': 'text/plain' });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  receiver.port = bound;
  receiver.url = `http://127.0.0.1:${bound}/hook`;
  receiver.waitFor = async (count, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver got ${received.length} requests, expected ${count}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return received;
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
