/**
 * The fairness link of the resolver chain (OpenFGA's dispatch throttling): once one request has made
 * `threshold` hops, every further hop first yields to the event loop, so a request that fans out widely
 * cannot starve the other requests of this process. It delays, never blocks: a hop never waits for a slot
 * another hop holds, so nested hops cannot deadlock.
 */
import type { CheckRequest, CheckResolver } from './check.ts';
import type { CheckOutcome } from './rewrites.ts';

export class ThrottlingCheckResolver implements CheckResolver {
  readonly #next: CheckResolver;
  readonly #threshold: number;
  #dispatched = 0;

  constructor(next: CheckResolver, threshold: number) {
    this.#next = next;
    this.#threshold = threshold;
  }

  /** Hops made through this link so far. */
  get dispatched(): number {
    return this.#dispatched;
  }

  async resolveCheck(request: CheckRequest): Promise<CheckOutcome> {
    if (++this.#dispatched > this.#threshold) await new Promise<void>((resolve) => setImmediate(resolve));
    return this.#next.resolveCheck(request);
  }
}
