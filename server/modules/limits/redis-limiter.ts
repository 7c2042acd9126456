/**
 * --redis-url: the RateLimiter's counters in Redis (rate-limiter-flexible's RateLimiterRedis over ioredis),
 * so several instances behind one load balancer share every limit (docs/architecture.md#horizontal-scale).
 *
 * Startup needs Redis: an unreachable --redis-url is refused with a one-line message, like an unreachable
 * database, because starting with per-instance counters would quietly multiply every limit by the number
 * of instances. Later outages degrade instead of failing requests: each bucket has an in-memory insurance
 * limiter with the same allowance that answers while Redis does not (commands fail fast, no offline queue).
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import type { RateLimiter } from '../../kernel/limits.ts';
import { systemClock, type Clock } from '../../kernel/deps.ts';
import { ConfigError } from '../../config/parse.ts';
import { createRateLimiter, type LimiterFactory } from './memory-limiter.ts';
import type { Policies } from './policies.ts';

const CONNECT_TIMEOUT_MS = 3000;

/** The URL without its password, for messages. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

export async function openRedisLimiter(policies: Policies, url: string, logger: Logger, clock: Clock = systemClock): Promise<RateLimiter> {
  let started = false;
  let lastError = '';
  let client: Redis;
  try {
    client = new Redis(url, {
      lazyConnect: true,
      // Fail a command at once while disconnected, so the insurance limiter answers instead of a queue.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // At startup one attempt decides; after it, keep reconnecting at most every two seconds.
      retryStrategy: (times) => (started ? Math.min(times * 200, 2000) : null),
    });
  } catch (err) {
    throw new ConfigError(`--redis-url is not a Redis URL: ${(err as Error).message}`);
  }
  // ioredis reports connection errors as events too; without a listener they would be unhandled.
  client.on('error', (err: Error) => {
    if (err.message === lastError) return;
    lastError = err.message;
    if (started) logger.warn({ err: err.message }, 'Redis (--redis-url) unavailable: rate limits fall back to this instance');
  });
  client.on('ready', () => {
    if (started && lastError) logger.info('Redis (--redis-url) reachable again: rate limits shared again');
    lastError = '';
  });
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    client.disconnect();
    const reason = lastError || (err as Error).message.split('\n')[0];
    throw new ConfigError(`cannot reach Redis at --redis-url ${redactedUrl(url)}: ${reason}`);
  }
  started = true;
  const factory: LimiterFactory = (_bucket, options) => new RateLimiterRedis({
    ...options,
    storeClient: client,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
  return createRateLimiter(policies, factory, async () => {
    await client.quit().catch(() => client.disconnect());
  }, clock);
}
