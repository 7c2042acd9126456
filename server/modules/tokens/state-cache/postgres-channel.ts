/**
 * Invalidations over PostgreSQL LISTEN/NOTIFY (PostgreSQL documentation, "NOTIFY": delivered to every
 * session listening on the channel in the same database, after the sending transaction commits).
 *
 * The listener is a dedicated connection made with the options of MikroORM's own `pg` pool (the pool's
 * Client class and options, so no second driver or configuration), outside the pool so that LISTEN never
 * ties up a connection requests need. Messages are sent through the pool. A dropped listener is reported
 * down at once and reconnected with a capped backoff.
 */
import type { Logger } from 'pino';
import type { Storage } from '../../../storage/types.ts';
import { CHANNEL_NAME, type ChannelEvents, type InvalidationChannel } from './channel.ts';

/** The part of the `pg` API used here (`pg` ships no types in this tree). */
interface PgNotification {
  channel: string;
  payload?: string;
}
interface PgClient {
  connect(): Promise<void>;
  query(sql: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: PgNotification) => void): void;
  on(event: 'error' | 'end', listener: (err?: Error) => void): void;
  removeAllListeners(): void;
}
interface PgPool {
  readonly Client: new (options: unknown) => PgClient;
  readonly options: unknown;
  query(sql: string, values?: unknown[]): Promise<unknown>;
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;

export async function openPostgresChannel(storage: Storage, events: ChannelEvents, logger: Logger): Promise<InvalidationChannel> {
  const connection = storage.orm.em.getConnection() as unknown as { getNativeClient(): Promise<PgPool> };
  const pool = await connection.getNativeClient();
  let client: PgClient | undefined;
  let closed = false;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | undefined;
  let lastError = '';

  const dropped = (listener: PgClient, reason: string) => {
    if (client !== listener) return;
    client = undefined;
    listener.removeAllListeners();
    listener.on('error', () => undefined);
    listener.end().catch(() => undefined);
    events.down(reason);
    if (reason !== lastError) logger.warn({ reason }, 'token state: PostgreSQL invalidation listener lost; answers are re-read every 100 ms until it is back');
    lastError = reason;
    schedule();
  };

  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void listen();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };

  const listen = async () => {
    if (closed) return;
    const listener = new pool.Client(pool.options);
    client = listener;
    listener.on('error', (err) => dropped(listener, err?.message ?? 'connection error'));
    listener.on('end', () => dropped(listener, 'connection ended'));
    listener.on('notification', (message) => {
      if (message.channel === CHANNEL_NAME && typeof message.payload === 'string') events.message(message.payload);
    });
    try {
      await listener.connect();
      await listener.query(`LISTEN ${CHANNEL_NAME}`);
    } catch (err) {
      dropped(listener, (err as Error).message);
      return;
    }
    if (closed || client !== listener) return;
    delay = RECONNECT_MIN_MS;
    if (lastError) logger.info('token state: PostgreSQL invalidation listener back');
    lastError = '';
    events.up();
  };

  await listen();
  return {
    kind: 'postgres',
    async publish(text) {
      await pool.query('select pg_notify($1, $2)', [CHANNEL_NAME, text]);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const listener = client;
      client = undefined;
      if (!listener) return;
      listener.removeAllListeners();
      listener.on('error', () => undefined);
      await listener.end().catch(() => undefined);
    },
  };
}
