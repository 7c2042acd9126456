/**
 * Bounded concurrency for the resolvers. Two tools, because recursion rules out one global pool (a parent
 * holding a slot while it waits on children would deadlock once the pool fills):
 *
 * - `settleBounded` runs one fan-out (the children of a union, the usersets of a relation) with at most
 *   `limit` started at once and stops starting new ones as soon as the caller's verdict is known, like
 *   OpenFGA's per-operator pools.
 * - `Semaphore` bounds leaf work that never waits on other work: the store reads of one request.
 */

/**
 * Runs `run` over `items`, at most `limit` at a time, handing each settled outcome to `onSettled`. When
 * `onSettled` returns true the verdict is known: no further item is started and the promise resolves
 * (items already running finish in the background; their outcomes are ignored).
 */
export function settleBounded<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<R>,
  onSettled: (outcome: PromiseSettledResult<R>) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    let next = 0;
    let running = 0;
    let done = false;
    const finish = () => {
      done = true;
      resolve();
    };
    const startMore = () => {
      while (!done && running < limit && next < items.length) {
        const item = items[next++];
        running++;
        let promise: Promise<R>;
        try {
          promise = run(item);
        } catch (err) {
          promise = Promise.reject(err);
        }
        promise.then(
          (value) => settle({ status: 'fulfilled', value }),
          (reason: unknown) => settle({ status: 'rejected', reason }),
        );
      }
      if (!done && running === 0 && next >= items.length) finish();
    };
    const settle = (outcome: PromiseSettledResult<R>) => {
      running--;
      if (done) return;
      if (onSettled(outcome)) finish();
      else startMore();
    };
    startMore();
  });
}

/** A counting semaphore: `use` waits for a free slot, runs the task and frees the slot. */
export class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(slots: number) {
    this.#free = slots;
  }

  async use<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const wake = this.#waiting.shift();
      if (wake) wake();
      else this.#free++;
    }
  }
}

/**
 * Processes a growing set of work items, at most `limit` at once: `work` may `push` new items, which are
 * processed too. Resolves when nothing is left; rejects with the first failure (no new item starts after it).
 */
export function drain<T>(initial: readonly T[], limit: number, work: (item: T, push: (item: T) => void) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    // A queue read from `head` on: shift() would copy the rest of the array each time, quadratic once a
    // step pushes thousands of items (a list objects level of 10,000 objects).
    let queue = [...initial];
    let head = 0;
    let running = 0;
    let failed = false;
    const push = (item: T) => {
      queue.push(item);
      pump();
    };
    const pump = () => {
      while (!failed && running < limit && head < queue.length) {
        const item = queue[head++] as T;
        if (head > 1024 && head * 2 > queue.length) {
          queue = queue.slice(head);
          head = 0;
        }
        running++;
        Promise.resolve()
          .then(() => work(item, push))
          .then(
            () => {
              running--;
              pump();
            },
            (err: unknown) => {
              running--;
              if (!failed) {
                failed = true;
                reject(err);
              }
            },
          );
      }
      if (!failed && running === 0 && head >= queue.length) resolve();
    };
    pump();
  });
}
