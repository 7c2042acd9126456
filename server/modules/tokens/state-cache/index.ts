/**
 * The in-memory answer to "is this token still honoured?" that keeps the database off the validation path
 * while revocation stays immediate (docs/tokens.md#tokens-are-stateful). buildApp() opens one per app and
 * closes it before storage; Deps.tokenState is added here by declaration merging so the kernel imports
 * nothing of it.
 *
 * Invalidations travel between instances over PostgreSQL LISTEN/NOTIFY, or Redis pub/sub with --redis-url
 * (preferred when given: every instance of a deployment shares it, whatever its database); without either,
 * cached answers are trusted for 100 ms (token-state-cache.ts).
 */
import type { Logger } from 'pino';
import type { Config } from '../../../config/flags.ts';
import type { Storage } from '../../../storage/types.ts';
import { TokenStateCacheImpl, DEFAULT_LIMITS, type CacheLimits } from './token-state-cache.ts';
import type { ChannelEvents, InvalidationChannel } from './channel.ts';

export type TokenStateCache = TokenStateCacheImpl;
export type { TokenRecordState } from './snapshots.ts';
export { invalidateTokenState, type StateChange } from './transaction-hooks.ts';
export { DEFAULT_LIMITS, type CacheLimits };

declare module '../../../kernel/deps.ts' {
  interface Deps {
    /** Live token records and active users held in memory (modules/tokens/state-cache). */
    readonly tokenState?: TokenStateCache;
  }
}

export type { ChannelEvents, InvalidationChannel } from './channel.ts';

/**
 * A connection of its own to the fleet's broadcast (Redis pub/sub with --redis-url, else PostgreSQL
 * LISTEN/NOTIFY), for another module that tells the other instances of a change; undefined when the
 * deployment has none (SQLite or MariaDB without Redis).
 */
export async function openFleetChannel(config: Config, storage: Storage, events: ChannelEvents, logger: Logger): Promise<InvalidationChannel | undefined> {
  if (config.redisUrl) {
    // Loaded only with --redis-url (the bundle lowers this import to a lazy require), like the Redis limiter.
    const { openRedisChannel } = await import('./redis-channel.ts');
    return openRedisChannel(config.redisUrl, events, logger);
  }
  if (storage.kind === 'postgres') {
    const { openPostgresChannel } = await import('./postgres-channel.ts');
    return openPostgresChannel(storage, events, logger);
  }
  return undefined;
}

export async function openTokenStateCache(
  config: Config,
  storage: Storage,
  logger: Logger,
  limits: CacheLimits = DEFAULT_LIMITS,
): Promise<TokenStateCache> {
  const cache = new TokenStateCacheImpl(storage, logger, limits);
  try {
    const channel = await openFleetChannel(config, storage, cache, logger);
    if (channel) cache.attach(channel);
  } catch (err) {
    await cache.close();
    throw err;
  }
  return cache;
}
