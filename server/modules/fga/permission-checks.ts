/**
 * Checks on behalf of a subject, with the agent rule (docs/errors.md#messages-worth-knowing): when an
 * agent acts for a user, a check passes only when both `user:<sub>` and `agent:<id>` hold the relation; a
 * model without `type agent` cannot constrain agents, so such checks are denied unless
 * --fga-allow-unconstrained-agents. Used by check_permissions and by `required_relations`.
 */
import { AppError } from '../../kernel/errors.ts';
import type { TupleKey } from './types.ts';
import type { FgaEngine, FgaService, LoadedModel } from './fga.service.ts';
import type { Subject } from './subject.ts';
import { validateTuple } from './model/validate-tuple.ts';
import type { RequestContext } from './engine/conditions.ts';

export interface PermissionCheck {
  relation: string;
  object: string;
  contextual_tuples?: TupleKey[];
  /** The request context conditions read (OpenFGA's check `context`; the AuthZEN PDP passes its `context`). */
  context?: RequestContext;
}

/** Checks run side by side, a few at a time; each check bounds its own inner concurrency too. */
const BATCH_CONCURRENCY = 8;

/** Contextual tuples obey the model like stored ones (OpenFGA semantics), but are never stored. */
function validateContextualTuples(model: LoadedModel, tuples: readonly TupleKey[], where: string): TupleKey[] {
  return tuples.map((tuple, index) => {
    try {
      validateTuple(model.model, tuple, { contextual: true });
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.kind, `${where}.contextual_tuples[${index}]: ${err.message}`, err.detail);
      throw err;
    }
    return { user: tuple.user, relation: tuple.relation, object: tuple.object };
  });
}

async function subjectHolds(engine: FgaEngine, user: string, check: PermissionCheck, contextualTuples: TupleKey[]): Promise<boolean> {
  const { allowed } = await engine.check({ user, relation: check.relation, object: check.object, contextualTuples, context: check.context });
  return allowed;
}

export interface CheckRun {
  service: FgaService;
  model: LoadedModel;
  engine: FgaEngine;
  subject: Subject;
}

/** One check for the subject, the agent rule applied. `where` names the check in error messages. */
export async function checkForSubject(run: CheckRun, check: PermissionCheck, where: string): Promise<boolean> {
  const contextual = validateContextualTuples(run.model, check.contextual_tuples ?? [], where);
  const { user, agent } = run.subject;
  try {
    // The user's side is evaluated first in every case, so a malformed pair is reported alike for agents.
    const userAllowed = await subjectHolds(run.engine, user, check, contextual);
    if (!agent) return userAllowed;
    if (!run.model.declaresAgent) return run.service.allowUnconstrainedAgents && userAllowed;
    return userAllowed && (await subjectHolds(run.engine, agent, check, contextual));
  } catch (err) {
    if (err instanceof AppError && err.kind !== 'internal') throw new AppError(err.kind, `${where}: ${err.message}`, err.detail);
    throw err;
  }
}

/** Runs every check and answers in input order. */
export async function checkAll(run: CheckRun, checks: readonly PermissionCheck[], label: string): Promise<boolean[]> {
  const results: boolean[] = new Array(checks.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < checks.length) {
      const index = next++;
      results[index] = await checkForSubject(run, checks[index]!, `${label}[${index}]`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, checks.length) }, worker));
  return results;
}
