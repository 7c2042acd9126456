/**
 * Invalidations over Redis pub/sub with --redis-url (Redis documentation, "Pub/Sub": at-most-once delivery
 * to the clients subscribed at that moment). A subscriber connection of its own (a subscribed connection
 * can do nothing else) and one for publishing that fails fast instead of queueing while Redis is away.
 * Loaded only with --redis-url, like the Redis limiter: ioredis costs memory a single instance never needs.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { CHANNEL_NAME, type ChannelEvents, type InvalidationChannel } from './channel.ts';

const CONNECT_TIMEOUT_MS = 3000;
const retryStrategy = (times: number) => Math.min(times * 200, 2000);

export async function openRedisChannel(url: string, events: ChannelEvents, logger: Logger): Promise<InvalidationChannel> {
  const options = { lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS, retryStrategy, autoResubscribe: false };
  const subscriber = new Redis(url, { ...options, maxRetriesPerRequest: null });
  const publisher = new Redis(url, { ...options, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let lastError = '';
  let subscribed = false;
  const report = (err: Error) => {
    if (err.message === lastError) return;
    lastError = err.message;
    logger.warn({ err: err.message }, 'token state: Redis invalidation channel unavailable; answers are re-read every 100 ms until it is back');
  };
  subscriber.on('error', report);
  publisher.on('error', report);
  subscriber.on('message', (channel: string, text: string) => {
    if (channel === CHANNEL_NAME) events.message(text);
  });
  subscriber.on('close', () => {
    if (!subscribed) return;
    subscribed = false;
    events.down('Redis connection closed');
  });
  // Subscribed again by hand after each reconnect, so that "up" is reported only once it holds.
  subscriber.on('ready', () => {
    subscriber.subscribe(CHANNEL_NAME).then(
      () => {
        subscribed = true;
        lastError = '';
        events.up();
      },
      (err: Error) => report(err),
    );
  });
  await Promise.all([subscriber.connect().catch(report), publisher.connect().catch(report)]);
  return {
    kind: 'redis',
    async publish(text) {
      await publisher.publish(CHANNEL_NAME, text);
    },
    async close() {
      subscriber.removeAllListeners('close');
      await Promise.all([
        subscriber.quit().catch(() => subscriber.disconnect()),
        publisher.quit().catch(() => publisher.disconnect()),
      ]);
    },
  };
}
