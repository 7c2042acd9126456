/**
 * How many argon2id computations run at once, and how many threads libuv's pool has for them.
 *
 * @node-rs/argon2 computes on libuv's thread pool, which the rest of the process shares (asynchronous fs,
 * dns.lookup, WebCrypto jobs such as jose's signatures). Each computation is CPU- and memory-bound (19 MiB
 * walked twice, ARGON2_PARAMS): more of them at once than there are cores only makes them evict each other
 * from the caches and adds 19 MiB each, it does not add throughput. Measured here on 2 vCPUs with
 * bench/argon2-ceiling.ts: 2 threads about 120 verifications/s, libuv's default of 4 threads about 62/s.
 *
 * So: at most one computation per core (`hashingConcurrency`), queued in order in this process beyond that,
 * and a pool with at least one thread more than that (`preferredPoolSize`), so that a file read or a token
 * signature never waits behind a queue of password hashes. The queue holds what libuv's queue held before
 * (every login in flight), so no request is refused or reordered by it; the timing of a login for an
 * unknown account stays that of a real one (the dummy verification takes a slot like any other).
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

/** One thread per core for hashing plus one for everything else, and never fewer than libuv's default. */
export function preferredPoolSize(cores: number): number {
  return Math.min(LIBUV_MAX_POOL_SIZE, Math.max(LIBUV_DEFAULT_POOL_SIZE, Math.max(1, cores) + 1));
}

/** Hashes at once: one per core, leaving at least one pool thread free when the pool has two or more. */
export function hashingConcurrency(poolSize: number, cores: number): number {
  return Math.max(1, Math.min(Math.max(1, cores), poolSize - 1));
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
