/**
 * How many argon2id computations run at once, and how many threads libuv's pool has for them.
 *
 * @node-rs/argon2 computes on libuv's thread pool, which the rest of the process shares (asynchronous fs,
 * dns.lookup, WebCrypto jobs such as jose's verifications). Each computation is CPU- and memory-bound
 * (19 MiB walked twice, ARGON2_PARAMS): more of them at once than there are cores only makes them evict
 * each other from the caches and adds 19 MiB each, it does not add throughput. Measured here on 2 vCPUs
 * with bench/argon2-ceiling.ts: 2 threads about 120 verifications/s, libuv's default of 4 threads about 62/s.
 *
 * So the pool has one thread per core (`preferredPoolSize`), and the process keeps as many computations
 * again waiting in libuv's queue (`hashingConcurrency`, two per thread, as bench/argon2-ceiling.ts keeps
 * them to measure the ceiling): when a thread finishes a hash it takes a waiting one at once, on its own.
 * With one per thread, a finished hash left its core without work until the event loop came round to start
 * the next, which under load it does late. With one queued ahead for the whole pool, the second thread to
 * finish still waited: the event loop blocks in SQLite's commit fsync (storage/sqlite-dialect.ts,
 * synchronous = FULL) for 1 to 7 ms per login on this machine, about as long as a hash (7-15 ms), and does
 * some 3 ms of other work per login besides. One waiting per thread covers a stall as long as a hash for
 * every thread. The rest wait in order in this process (SlotQueue), as libuv's queue held them before, so
 * no request is refused or reordered; the timing of a login for an unknown account stays that of a real one
 * (the dummy verification takes a slot like any other). The cost: under a login flood, other pool work (a
 * first verification of a token by jose, a file read, a DNS lookup) waits behind at most one queued hash
 * per thread (one hash's time, since the threads work through them side by side), never behind the whole
 * line. Token signing, the one pool job of every login before, is synchronous now (tokens/jws-sign.ts).
 *
 * An operator's UV_THREADPOOL_SIZE larger than the cores keeps threads to spare: then one hash per core runs
 * and none is queued ahead (a queued hash would start on a spare thread and oversubscribe the cores).
 */
import { availableParallelism } from 'node:os';

/** libuv's pool size when UV_THREADPOOL_SIZE is not set, and its upper bound (libuv src/threadpool.c). */
export const LIBUV_DEFAULT_POOL_SIZE = 4;
const LIBUV_MAX_POOL_SIZE = 1024;

/** The size libuv gives its pool for this UV_THREADPOOL_SIZE value: atoi(), 0 counts as 1, at most 1024. */
export function libuvPoolSize(value: string | undefined): number {
  if (value === undefined) return LIBUV_DEFAULT_POOL_SIZE;
  const parsed = Number.parseInt(value.trim(), 10);
  if (!Number.isFinite(parsed) || parsed <= 0) return 1;
  return Math.min(parsed, LIBUV_MAX_POOL_SIZE);
}

/** One thread per core: every thread can hash without two hashes sharing a core. */
export function preferredPoolSize(cores: number): number {
  return Math.min(LIBUV_MAX_POOL_SIZE, Math.max(1, cores));
}

/**
 * Hashes handed to libuv at once. A pool no larger than the cores: every thread hashes and one more per
 * thread waits in libuv's queue. A larger pool: one per core, the other threads spare.
 */
export function hashingConcurrency(poolSize: number, cores: number): number {
  const usableCores = Math.max(1, cores);
  return poolSize <= usableCores ? poolSize * 2 : usableCores;
}

/**
 * Sets UV_THREADPOOL_SIZE to preferredPoolSize() unless the environment already sets it (the operator's
 * choice, read by libuv itself). Must run before anything uses the pool: libuv reads the variable once,
 * when the first job is queued. Answers the size the pool will have.
 */
export function sizeThreadPool(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  if (env.UV_THREADPOOL_SIZE === undefined) env.UV_THREADPOOL_SIZE = String(preferredPoolSize(cores));
  return libuvPoolSize(env.UV_THREADPOOL_SIZE);
}

/** Runs async tasks at most `limit` at a time, the rest waiting in arrival order. */
export class SlotQueue {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`a slot queue needs a whole number of slots >= 1, not ${limit}`);
    this.#limit = limit;
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter (running stays the same), or is given back.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

let hashingSlots: SlotQueue | undefined;

/** The process's queue for argon2 work, sized from the pool libuv has (or will have) and the cores. */
export function argon2Slots(): SlotQueue {
  hashingSlots ??= new SlotQueue(hashingConcurrency(libuvPoolSize(process.env.UV_THREADPOOL_SIZE), availableParallelism()));
  return hashingSlots;
}
