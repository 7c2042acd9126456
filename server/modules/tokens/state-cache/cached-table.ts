/**
 * One table of cached answers (token records, users or sessions by id): a bounded map of what the
 * database said, each entry with the epoch taken before its read (invalidation-ledger.ts) and the moment
 * that read started. An entry answers while no write invalidated its keys since and while it is younger than
 * the trust window the cache grants now (a short one without a working broadcast channel).
 *
 * Concurrent misses of one id share one read, but only while nothing was invalidated since that read
 * began: a request that arrives after a revocation never joins a read that may have seen the row before it.
 */
import { BoundedMap } from '../../../kernel/bounded-map.ts';
import type { InvalidationLedger } from './invalidation-ledger.ts';

interface Entry<T> {
  readonly value: T;
  readonly keys: readonly string[];
  readonly epoch: number;
  /** performance.now() when the read that produced the value started. */
  readonly readAt: number;
}

interface Flight<T> {
  readonly epoch: number;
  readonly promise: Promise<T | null>;
}

export interface TableOptions<T> {
  readonly ledger: InvalidationLedger;
  readonly maxEntries: number;
  /** How long a value may answer now, in milliseconds. */
  readonly trustMs: () => number;
  /** The invalidation keys a value depends on (its user, its session). */
  readonly keysOf: (value: T) => readonly string[];
}

export class CachedTable<T> {
  readonly #entries: BoundedMap<string, Entry<T>>;
  readonly #flights = new Map<string, Flight<T>>();
  readonly #options: TableOptions<T>;

  constructor(options: TableOptions<T>) {
    this.#options = options;
    this.#entries = new BoundedMap(options.maxEntries);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cached value while it may answer, else undefined: what `read` would answer without a load. */
  peek(id: string): T | undefined {
    const entry = this.#entries.get(id);
    return entry && this.#answers(entry, performance.now()) ? entry.value : undefined;
  }

  /** The cached value while it may answer, else `load()`'s (stored when no write raced it). Null is not cached. */
  read(id: string, load: () => Promise<T | null>): Promise<T | null> {
    const cached = this.peek(id);
    if (cached !== undefined) return Promise.resolve(cached);
    const { ledger } = this.#options;
    const flight = this.#flights.get(id);
    if (flight && flight.epoch === ledger.epoch) return flight.promise;
    const epoch = ledger.epoch;
    const readAt = performance.now();
    const promise = load().then(
      (value) => {
        if (this.#flights.get(id)?.promise === promise) this.#flights.delete(id);
        if (value !== null) {
          const keys = this.#options.keysOf(value);
          if (ledger.unchangedSince(epoch, keys)) this.#entries.set(id, { value, keys, epoch, readAt });
        }
        return value;
      },
      (err: unknown) => {
        if (this.#flights.get(id)?.promise === promise) this.#flights.delete(id);
        throw err;
      },
    );
    this.#flights.set(id, { epoch, promise });
    return promise;
  }

  /** Drops entries that could no longer answer (the periodic sweep keeps memory near the live working set). */
  sweep(): void {
    const now = performance.now();
    this.#entries.deleteWhere((entry) => !this.#answers(entry, now));
  }

  clear(): void {
    this.#entries.clear();
  }

  #answers(entry: Entry<T>, now: number): boolean {
    return now - entry.readAt <= this.#options.trustMs() && this.#options.ledger.unchangedSince(entry.epoch, entry.keys);
  }
}
