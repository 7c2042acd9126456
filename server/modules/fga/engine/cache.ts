/**
 * The per-request check cache, one link of the resolver chain (OpenFGA's CachedCheckResolver, scoped to one
 * request so a write is always seen by the next request). Only settled, cycle-free outcomes are kept: a
 * false reached through a cycle depends on the path that led to it, and an error is never remembered.
 * In-flight sub-checks are deliberately not shared: two branches waiting on each other's in-flight work
 * through a cycle would never settle.
 */
import type { CheckOutcome } from './rewrites.ts';
import type { CheckRequest, CheckResolver } from './check.ts';
import { checkKey } from './tuple-strings.ts';

export class CachedCheckResolver implements CheckResolver {
  readonly #settled = new Map<string, CheckOutcome>();
  readonly #next: CheckResolver;

  constructor(next: CheckResolver) {
    this.#next = next;
  }

  async resolveCheck(request: CheckRequest): Promise<CheckOutcome> {
    const key = checkKey(request.object, request.relation, request.user);
    const known = this.#settled.get(key);
    if (known) return known;
    const outcome = await this.#next.resolveCheck(request);
    if (!outcome.cycle) this.#settled.set(key, outcome);
    return outcome;
  }
}
