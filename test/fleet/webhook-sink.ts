/**
 * A webhook receiver for the fleet test: answers every delivery 200 after a delay (so that each instance has
 * deliveries in flight at any moment), and records per X-Service-Delivery id each arrival and whether its
 * answer reached the sender or the sender's connection was gone first (an instance killed mid-request).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  deliveryId: string;
  userId: string;
  at: number;
  /** The 200 was written to an open connection. */
  answered: boolean;
}

export interface WebhookSink {
  url: string;
  arrivals: Arrival[];
  /** Ids of deliveries whose answer never reached the sender. */
  cutShort(): Set<string>;
  /** Ids answered 200 at least once. */
  answeredIds(): Set<string>;
  close(): Promise<void>;
}

export async function startWebhookSink(delayMs: number): Promise<WebhookSink> {
  const arrivals: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let userId = '';
      try {
        userId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { user?: { id?: string } }).user?.id ?? '';
      } catch {
        // recorded without a user
      }
      const arrival: Arrival = { deliveryId: String(req.headers['x-service-delivery'] ?? ''), userId, at: Date.now(), answered: false };
      arrivals.push(arrival);
      setTimeout(() => {
        if (res.destroyed || req.socket.destroyed) return;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
        arrival.answered = true;
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    cutShort: () => new Set(arrivals.filter((a) => !a.answered && Date.now() - a.at > delayMs).map((a) => a.deliveryId)),
    answeredIds: () => new Set(arrivals.filter((a) => a.answered).map((a) => a.deliveryId)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
