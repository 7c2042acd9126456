/**
 * A TCP proxy on a loopback port to a database server shared with other tests, which a test can cut (every
 * open connection reset, new ones refused) and restore on the same port: an outage of that database as one
 * server sees it, without stopping the database the other tests use (the MariaDB on 3306, for example).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface CuttableProxy {
  port: number;
  /** Resets every proxied connection and stops listening, so new connections are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}

export async function startCuttableProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const makeServer = () =>
    createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      track(client);
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  let server = makeServer();
  const port = await listen(server, 0);
  let listening = true;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
    });
  return {
    port,
    async cut() {
      const closed = stopListening();
      for (const socket of sockets) socket.resetAndDestroy();
      await closed;
    },
    async restore() {
      server = makeServer();
      await listen(server, port);
      listening = true;
    },
    async close() {
      const closed = stopListening();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
