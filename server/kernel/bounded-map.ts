/**
 * A Map that holds at most `max` entries and drops the oldest written first (insertion order, refreshed on
 * every write), so a flood of distinct keys costs a fixed amount of memory (OWASP ASVS 1.11.4: bounded
 * resources). Reads do not reorder: the hot path stays one Map lookup.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #max: number;
  readonly #onEvict?: (key: K, value: V) => void;

  constructor(max: number, onEvict?: (key: K, value: V) => void) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('a bounded map holds at least one entry');
    this.#max = max;
    this.#onEvict = onEvict;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Writes the entry as the newest one, evicting the oldest while over the bound. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value as K;
      const evicted = this.#entries.get(oldest) as V;
      this.#entries.delete(oldest);
      this.#onEvict?.(oldest, evicted);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** Removes every entry the predicate selects (the periodic sweep). */
  deleteWhere(predicate: (value: V, key: K) => boolean): void {
    for (const [key, value] of this.#entries) if (predicate(value, key)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
