/**
 * A webhook receiver on loopback for the journeys: records every POST (headers and body) and answers 200
 * with a small JSON body, so the console can show the status and the response of a test send and of a
 * delivery.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** The base URL, e.g. http://127.0.0.1:41235 */
  url: string;
  received: ReceivedHook[];
  /** The first received request whose body matches, arriving within the timeout. */
  waitFor(match: (hook: ReceivedHook) => boolean, timeoutMs: number): Promise<ReceivedHook>;
  close(): Promise<void>;
}

export const RECEIVER_ANSWER = '{"received":true,"by":"journey receiver"}';

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(RECEIVER_ANSWER);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async waitFor(match, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = received.find(match);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no matching webhook within ${timeoutMs} ms; got ${received.length} requests`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
