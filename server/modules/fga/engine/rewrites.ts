/**
 * The set operators of a userset rewrite (OpenFGA schema 1.1 `or`, `and`, `but not`) as reducers over
 * lazily started sub-checks, with OpenFGA's verdict rules:
 *
 * - union: true as soon as one child is true; an error counts only when no child is true;
 * - intersection: false as soon as one child is false (or hit a cycle); an error counts only when no child
 *   is false;
 * - exclusion: false as soon as the base is false or the subtracted side is true; a cycle on either side
 *   is false.
 *
 * A false that came from a cycle carries `cycle: true` so the cache never stores it (the same sub-problem
 * reached by another path may be true).
 */
import { settleBounded } from './concurrency.ts';

export interface CheckOutcome {
  allowed: boolean;
  cycle: boolean;
}

export type CheckThunk = () => Promise<CheckOutcome>;

export const ALLOWED: CheckOutcome = Object.freeze({ allowed: true, cycle: false });
export const DENIED: CheckOutcome = Object.freeze({ allowed: false, cycle: false });
export const CYCLE: CheckOutcome = Object.freeze({ allowed: false, cycle: true });

export async function union(children: readonly CheckThunk[], limit: number): Promise<CheckOutcome> {
  let allowed = false;
  let cycle = false;
  let error: unknown;
  let failed = false;
  await settleBounded(children, limit, (child) => child(), (outcome) => {
    if (outcome.status === 'rejected') {
      failed = true;
      error = outcome.reason;
      return false;
    }
    if (outcome.value.cycle) cycle = true;
    if (outcome.value.allowed) allowed = true;
    return allowed;
  });
  if (allowed) return ALLOWED;
  if (failed) throw error;
  return cycle ? CYCLE : DENIED;
}

export async function intersection(children: readonly CheckThunk[], limit: number): Promise<CheckOutcome> {
  let denied: CheckOutcome | undefined;
  let error: unknown;
  let failed = false;
  await settleBounded(children, limit, (child) => child(), (outcome) => {
    if (outcome.status === 'rejected') {
      if (!failed) error = outcome.reason;
      failed = true;
      return false;
    }
    if (outcome.value.cycle || !outcome.value.allowed) denied = outcome.value.cycle ? CYCLE : DENIED;
    return denied !== undefined;
  });
  if (denied) return denied;
  if (failed) throw error;
  return ALLOWED;
}

export async function exclusion(base: CheckThunk, subtract: CheckThunk): Promise<CheckOutcome> {
  let denied: CheckOutcome | undefined;
  const errors: unknown[] = [undefined, undefined];
  const failed = [false, false];
  const sides = [base, subtract];
  // Both sides start together; index 0 is the base, 1 the subtracted side.
  await settleBounded([0, 1], 2, async (side) => ({ side, outcome: await sides[side]().catch((err: unknown) => {
    failed[side] = true;
    errors[side] = err;
    return undefined;
  }) }), (settled) => {
    if (settled.status !== 'fulfilled' || !settled.value.outcome) return false;
    const { side, outcome } = settled.value;
    if (outcome.cycle) denied = CYCLE;
    else if (side === 0 && !outcome.allowed) denied = DENIED;
    else if (side === 1 && outcome.allowed) denied = DENIED;
    return denied !== undefined;
  });
  if (denied) return denied;
  if (failed[0]) throw errors[0];
  if (failed[1]) throw errors[1];
  return ALLOWED;
}
