/**
 * A webhook receiver for the fleet test: answers every delivery 200 after a delay (so that each instance has
 * deliveries in flight at any moment), and records per X-Service-Delivery id each arrival and whether its
 * answer reached the sender or the sender's connection was gone first (an instance killed mid-request). Which
 * process sent an arrival is told by its connection: the sender's end of it is one of that process's sockets.
 */
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  deliveryId: string;
  userId: string;
  at: number;
  /** The sender's port of the connection it came on. */
  senderPort: number;
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
  /** Arrivals still waiting for their answer that came from the process `pid` (Linux /proc). */
  waitingFrom(pid: number): Arrival[];
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
      const arrival: Arrival = {
        deliveryId: String(req.headers['x-service-delivery'] ?? ''),
        userId,
        at: Date.now(),
        senderPort: req.socket.remotePort ?? 0,
        answered: false,
      };
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
    waitingFrom(pid) {
      const ports = socketPortsOf(pid, port);
      return arrivals.filter((a) => !a.answered && ports.has(a.senderPort));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Local ports of the TCP connections process `pid` holds to 127.0.0.1:`remotePort`: its socket inodes
 * (/proc/<pid>/fd links `socket:[inode]`) matched against the kernel's table of IPv4 connections (proc(5),
 * /proc/net/tcp: hex local and remote address:port, inode in the tenth column).
 */
function socketPortsOf(pid: number, remotePort: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })();
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const line of readFileSync(`/proc/${pid}/net/tcp`, 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const [, local, remote] = fields;
    if (Number.parseInt(remote!.split(':')[1]!, 16) !== remotePort || !inodes.has(fields[9]!)) continue;
    ports.add(Number.parseInt(local!.split(':')[1]!, 16));
  }
  return ports;
}
