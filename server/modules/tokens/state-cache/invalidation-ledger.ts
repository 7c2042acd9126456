/**
 * When each key (a user, a session) was last invalidated, as a counter value (an epoch), so a cached answer
 * can tell whether a write has ended or changed it since it was read.
 *
 * The race this closes: a reader misses, reads the committed row, and a revoking transaction commits before
 * the reader stores what it read. The reader takes the epoch before reading and stores its answer only if
 * none of the answer's keys was invalidated after that epoch; a stored answer counts only while that still
 * holds. Writers invalidate after their commit (transaction-hooks.ts), so any read that may have seen the row
 * before the commit carries an older epoch and is refused (docs/tokens.md#tokens-are-stateful: revocation
 * is immediate).
 *
 * The ledger is bounded: forgetting a key raises a floor below which every cached answer counts as stale,
 * which can only cause extra reads, never a stale answer.
 */
import { BoundedMap } from '../../../kernel/bounded-map.ts';

export class InvalidationLedger {
  #epoch = 0;
  #floor = 0;
  readonly #lastInvalidated: BoundedMap<string, number>;

  constructor(maxKeys: number) {
    this.#lastInvalidated = new BoundedMap(maxKeys, (_key, epoch) => {
      this.#floor = Math.max(this.#floor, epoch);
    });
  }

  /** The epoch to take before reading the database. */
  get epoch(): number {
    return this.#epoch;
  }

  /** True when nothing invalidated any of `keys` (or everything) after `epoch`. */
  unchangedSince(epoch: number, keys: readonly string[]): boolean {
    if (epoch < this.#floor) return false;
    for (const key of keys) {
      const last = this.#lastInvalidated.get(key);
      if (last !== undefined && last > epoch) return false;
    }
    return true;
  }

  invalidate(keys: readonly string[]): void {
    if (keys.length === 0) return;
    this.#epoch += 1;
    for (const key of keys) this.#lastInvalidated.set(key, this.#epoch);
  }

  /** Every answer read up to now is stale (a broadcast channel dropped or came back, an unreadable message). */
  invalidateAll(): void {
    this.#epoch += 1;
    this.#floor = this.#epoch;
  }
}
