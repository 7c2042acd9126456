/**
 * list_permissions (docs/operations.md, docs/limits.md): every `{object, relation}` the subject holds, over the
 * types and relations of the current model, narrowed by `object_type` and `relation`; at most 1,000
 * entries, with `truncated` when more exist. The agent rule applies as for checks: an agent sees only what
 * both it and its user hold, and nothing when the model cannot constrain agents (unless allowed by flag).
 */
import { AppError } from '../../kernel/errors.ts';
import { MAX_PERMISSIONS } from './fga.schema.ts';
import type { CheckRun } from './permission-checks.ts';
import type { RequestBudget } from '../../kernel/request-budget.ts';

export interface PermissionListing {
  objects: string[];
  permissions: { object: string; relation: string }[];
  truncated: boolean;
}

export interface PermissionFilters {
  relation?: string;
  object_type?: string;
}

/** The (type, relation) pairs to list, in model order; unknown filter values are the caller's mistake. */
function pairsToList(run: CheckRun, filters: PermissionFilters): { type: string; relation: string }[] {
  const definitions = run.model.model.type_definitions;
  const types = filters.object_type ? definitions.filter((d) => d.type === filters.object_type) : definitions;
  if (filters.object_type && types.length === 0) throw AppError.invalid(`object_type: type '${filters.object_type}' is not defined in the model`);
  const pairs: { type: string; relation: string }[] = [];
  for (const definition of types) {
    for (const relation of Object.keys(definition.relations ?? {})) {
      if (!filters.relation || filters.relation === relation) pairs.push({ type: definition.type, relation });
    }
  }
  if (filters.object_type && filters.relation && pairs.length === 0) {
    throw AppError.invalid(`relation: '${filters.relation}' is not a relation of type '${filters.object_type}'`);
  }
  return pairs;
}

/** The objects of one (type, relation) pair the subject holds, the agent rule applied, at most `limit`. */
async function heldObjects(run: CheckRun, type: string, relation: string, limit: number): Promise<string[]> {
  const { user, agent } = run.subject;
  if (agent && !run.model.declaresAgent && !run.service.allowUnconstrainedAgents) return [];
  if (!agent || !run.model.declaresAgent) {
    return (await run.engine.listObjects({ user, type, relation, maxResults: limit })).objects;
  }
  // Both must hold the relation; the intersection is only right over the full lists.
  const [ofUser, ofAgent] = await Promise.all([
    run.engine.listObjects({ user, type, relation }),
    run.engine.listObjects({ user: agent, type, relation }),
  ]);
  const agentHolds = new Set(ofAgent.objects);
  return ofUser.objects.filter((object) => agentHolds.has(object));
}

/**
 * Each (type, relation) pair listed is one reverse check against the request's checks budget
 * (docs/limits.md, "Checks per request"), capped at the whole budget so a large model can still be listed alone.
 */
export async function listPermissions(run: CheckRun, filters: PermissionFilters, budget: RequestBudget): Promise<PermissionListing> {
  const pairs = pairsToList(run, filters);
  budget.spend(Math.min(pairs.length, budget.limit));
  const permissions: { object: string; relation: string }[] = [];
  let truncated = false;
  for (const { type, relation } of pairs) {
    // Sorted per pair so that the same store answers the same page whatever order the engine found them in.
    // One more than still fits tells whether the cap truncates.
    const objects = [...new Set(await heldObjects(run, type, relation, MAX_PERMISSIONS - permissions.length + 1))].sort();
    for (const object of objects) {
      if (permissions.length === MAX_PERMISSIONS) {
        truncated = true;
        break;
      }
      permissions.push({ object, relation });
    }
    if (truncated) break;
  }
  return { objects: [...new Set(permissions.map((p) => p.object))], permissions, truncated };
}
