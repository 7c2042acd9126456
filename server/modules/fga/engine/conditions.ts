/**
 * Conditional tuples (OpenFGA ABAC: `[user with cond]`, CEL expressions). Evaluating CEL is outside the
 * service specification (issue 4 lists `abac_tests.yaml` as a stretch), so the engine treats a tuple whose
 * condition it cannot evaluate as not granting: the branch it would open stays closed. That errs on the side
 * of denying, never of allowing. Unconditioned tuples always count.
 */
import type { TupleKey } from '../types.ts';

export type RequestContext = Record<string, unknown>;

/** Whether a stored or contextual tuple counts for this request. */
export function conditionMet(tuple: TupleKey, _context: RequestContext | undefined): boolean {
  return !tuple.condition?.name;
}
