/**
 * The cache behind Deps.tokenState: verified claims by token hash, and the token records, users and sessions
 * validation reads, each answered from memory while it may be trusted (docs/tokens.md#tokens-are-stateful;
 * docs/architecture.md#horizontal-scale).
 *
 * How long an answer may be trusted without reading the database again:
 * - 10 s while a broadcast channel delivers (channel.ts: heartbeats arrive), because every instance then
 *   hears of a write within milliseconds of its commit and forgets what it ended. Not longer: a broadcast
 *   can still be lost (the writer dies between its commit and its NOTIFY, or every retry fails), and this is
 *   how long another instance may then honour what was revoked; one read per token and user every 10 s
 *   costs nothing next to the validations it spares;
 * - 100 ms otherwise (SQLite, MariaDB, MySQL or MongoDB without --redis-url, or a channel that is down),
 *   so what another process revoked stops counting within 100 ms everywhere.
 * A write on this instance counts at once either way (transaction-hooks.ts, invalidation-ledger.ts).
 * Every table is bounded, and a sweep drops what could no longer answer, so memory follows the live working
 * set and not the number of tokens ever seen (OWASP ASVS 1.11.4).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Storage } from '../../../storage/types.ts';
import { User, type UserRow } from '../../users/index.ts';
import { Session, type SessionRow } from '../../sessions/index.ts';
import { TokenRecord } from '../token-record.entity.ts';
import type { Claims } from '../jwt.ts';
import { BoundedMap } from '../../../kernel/bounded-map.ts';
import { CachedTable } from './cached-table.ts';
import { InvalidationLedger } from './invalidation-ledger.ts';
import { TokenStateHooks, sessionKey, userKey } from './transaction-hooks.ts';
import { decodeMessage, encodeHeartbeat, encodeInvalidations, type ChannelEvents, type InvalidationChannel } from './channel.ts';
import { deepFreeze, recordSnapshot, sessionSnapshot, userSnapshot, type TokenRecordState } from './snapshots.ts';

export interface CacheLimits {
  /** Entries per table (claims, records, users, sessions) and keys in the invalidation ledger. */
  maxEntries: number;
  /** Trust without a working channel, in milliseconds. */
  shortTrustMs: number;
  /** Trust while the channel delivers, in milliseconds. */
  longTrustMs: number;
  /** A heartbeat is published this often... */
  heartbeatMs: number;
  /** ...and the channel counts as delivering while something arrived within this window. */
  healthWindowMs: number;
  /** Verified claims are kept at most this long (then the signature is checked again). */
  claimsMaxAgeMs: number;
  sweepMs: number;
}

export const DEFAULT_LIMITS: CacheLimits = {
  maxEntries: 10_000,
  shortTrustMs: 100,
  longTrustMs: 10_000,
  heartbeatMs: 1000,
  healthWindowMs: 3000,
  claimsMaxAgeMs: 5 * 60_000,
  sweepMs: 30_000,
};

/** Delays before publishing an invalidation again when the channel refused it. */
const PUBLISH_RETRIES_MS = [50, 200, 500, 1000];
/** How long a writer's answer waits for its broadcast at most. */
const PUBLISH_WAIT_MS = 250;

interface MemoizedClaims {
  readonly claims: Claims;
  readonly verifiedAt: number;
}

export class TokenStateCacheImpl implements ChannelEvents {
  readonly origin = randomUUID();
  readonly hooks: TokenStateHooks;
  readonly #storage: Storage;
  readonly #logger: Logger;
  readonly #limits: CacheLimits;
  readonly #ledger: InvalidationLedger;
  readonly #claims: BoundedMap<string, MemoizedClaims>;
  readonly #records: CachedTable<TokenRecordState>;
  readonly #users: CachedTable<UserRow>;
  readonly #sessions: CachedTable<SessionRow>;
  #channel: InvalidationChannel | undefined;
  #subscribed = false;
  /** performance.now() when the channel last delivered anything. */
  #lastHeard = -Infinity;
  #timers: NodeJS.Timeout[] = [];
  #closed = false;
  #lastPublishError = '';

  constructor(storage: Storage, logger: Logger, limits: CacheLimits = DEFAULT_LIMITS) {
    this.#storage = storage;
    this.#logger = logger;
    this.#limits = limits;
    this.#ledger = new InvalidationLedger(limits.maxEntries);
    this.#claims = new BoundedMap(limits.maxEntries);
    const table = <T>(keysOf: (value: T) => readonly string[]) =>
      new CachedTable<T>({ ledger: this.#ledger, maxEntries: limits.maxEntries, trustMs: () => this.trustMs(), keysOf });
    this.#records = table<TokenRecordState>((record) => [userKey(record.userId), sessionKey(record.sessionId)]);
    this.#users = table<UserRow>((user) => [userKey(user.id)]);
    this.#sessions = table<SessionRow>((session) => [userKey(session.userId), sessionKey(session.id)]);
    this.hooks = new TokenStateHooks({
      invalidateNow: (keys) => this.#ledger.invalidate(keys),
      invalidateCommitted: (keys) => this.#committed(keys),
    });
    storage.orm.em.getEventManager().registerSubscriber(this.hooks);
    this.#every(limits.sweepMs, () => this.sweep());
  }

  /** Starts broadcasting over `channel` (and heartbeats on it). */
  attach(channel: InvalidationChannel): void {
    this.#channel = channel;
    this.#every(this.#limits.heartbeatMs, () => void this.#publish(encodeHeartbeat(this.origin)));
  }

  get channelKind(): 'postgres' | 'redis' | 'none' {
    return this.#channel?.kind ?? 'none';
  }

  /** True while the channel is subscribed and has delivered within the health window. */
  channelDelivers(): boolean {
    return this.#subscribed && performance.now() - this.#lastHeard <= this.#limits.healthWindowMs;
  }

  trustMs(): number {
    return this.channelDelivers() ? this.#limits.longTrustMs : this.#limits.shortTrustMs;
  }

  // ChannelEvents

  up(): void {
    // Whatever was published while not subscribed is lost: nothing read before now may count.
    this.#subscribed = true;
    this.#lastHeard = performance.now();
    this.#forgetAll();
  }

  down(_reason: string): void {
    if (!this.#subscribed) return;
    this.#subscribed = false;
    this.#forgetAll();
  }

  message(text: string): void {
    const delivered = this.channelDelivers();
    this.#lastHeard = performance.now();
    // Heartbeats had stopped: messages may have been lost in between.
    if (!delivered && this.#subscribed) this.#forgetAll();
    const message = decodeMessage(text);
    if (!message) {
      this.#logger.warn('token state: unreadable message on the invalidation channel; forgetting every cached answer');
      this.#forgetAll();
      return;
    }
    if ('keys' in message && message.origin !== this.origin) this.#ledger.invalidate(message.keys);
  }

  // Reads

  /** Claims whose signature was verified for this token hash, while not older than claimsMaxAgeMs. */
  verifiedClaims(tokenHash: string): Claims | undefined {
    const memo = this.#claims.get(tokenHash);
    if (!memo) return undefined;
    if (performance.now() - memo.verifiedAt > this.#limits.claimsMaxAgeMs) {
      this.#claims.delete(tokenHash);
      return undefined;
    }
    return memo.claims;
  }

  /** Keeps claims that just passed the signature check; answers the frozen copy every later hit returns. */
  rememberClaims(tokenHash: string, claims: Claims): Claims {
    const frozen = deepFreeze(claims);
    if (!this.#closed) this.#claims.set(tokenHash, { claims: frozen, verifiedAt: performance.now() });
    return frozen;
  }

  tokenRecord(tokenHash: string): Promise<TokenRecordState | null> {
    return this.#records.read(tokenHash, async () => {
      const record = await this.#storage.fork().findOne(TokenRecord, { id: tokenHash });
      return record ? recordSnapshot(record) : null;
    });
  }

  /** The token record while the cache may answer it without reading the database, else undefined. */
  cachedTokenRecord(tokenHash: string): TokenRecordState | undefined {
    return this.#records.peek(tokenHash);
  }

  /** The user row while the cache may answer it without reading the database, else undefined. */
  cachedUser(userId: string): UserRow | undefined {
    return this.#users.peek(userId);
  }

  /** The user row (whatever its state: the caller decides whether it may act). */
  user(userId: string): Promise<UserRow | null> {
    return this.#users.read(userId, async () => {
      const user = await this.#storage.fork().findOne(User, { id: userId });
      return user ? userSnapshot(user) : null;
    });
  }

  session(sessionId: string): Promise<SessionRow | null> {
    return this.#sessions.read(sessionId, async () => {
      const session = await this.#storage.fork().findOne(Session, { id: sessionId });
      return session ? sessionSnapshot(session) : null;
    });
  }

  sweep(): void {
    const now = performance.now();
    const nowSeconds = Date.now() / 1000;
    this.#claims.deleteWhere((memo) => now - memo.verifiedAt > this.#limits.claimsMaxAgeMs || Number(memo.claims.exp) <= nowSeconds);
    this.#records.sweep();
    this.#users.sweep();
    this.#sessions.sweep();
  }

  /** Entries held now, per table (tests and figures). */
  sizes(): { claims: number; records: number; users: number; sessions: number } {
    return { claims: this.#claims.size, records: this.#records.size, users: this.#users.size, sessions: this.#sessions.size };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.hooks.close();
    this.#forgetAll();
    await this.#channel?.close();
  }

  async #committed(keys: readonly string[]): Promise<void> {
    this.#ledger.invalidate(keys);
    const sent = encodeInvalidations(this.origin, keys).map((text) => this.#publish(text, PUBLISH_RETRIES_MS));
    // The writer's answer waits for the broadcast, but never long: retries go on in the background.
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, PUBLISH_WAIT_MS)));
    await Promise.race([Promise.all(sent), waited]);
    clearTimeout(timer);
  }

  /** Publishes, retrying after each delay of `retries` (an invalidation other instances must hear). Never rejects. */
  async #publish(text: string, retries: readonly number[] = []): Promise<void> {
    const channel = this.#channel;
    if (!channel || this.#closed) return;
    try {
      await channel.publish(text);
      this.#lastPublishError = '';
    } catch (err) {
      if (retries.length > 0 && !this.#closed) {
        await new Promise((resolve) => setTimeout(resolve, retries[0]).unref());
        return this.#publish(text, retries.slice(1));
      }
      const message = (err as Error).message;
      if (message === this.#lastPublishError) return;
      this.#lastPublishError = message;
      this.#logger.error({ err: message }, 'token state: a message could not be broadcast; other instances learn of it within their trust window');
    }
  }

  #forgetAll(): void {
    this.#ledger.invalidateAll();
    this.#records.clear();
    this.#users.clear();
    this.#sessions.clear();
  }

  #every(ms: number, task: () => void): void {
    const timer = setInterval(task, ms);
    timer.unref();
    this.#timers.push(timer);
  }
}
