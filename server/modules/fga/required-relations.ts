/**
 * `required_relations` of `session`, `validate_jwt_token` and `validate_session` (docs/operations.md#session):
 * every `{relation, object}` pair must be allowed for the token's or session's
 * subject through the same engine and agent rule as check_permissions, else permission_denied naming the
 * first missing pair. With FGA off, asking for relations is failed_precondition like any FGA operation.
 */
import { AppError } from '../../kernel/errors.ts';
import type { Deps } from '../../kernel/deps.ts';
import type { RequestBudget } from '../../kernel/request-budget.ts';
import { requireFga } from './fga.service.ts';
import { checkAll } from './permission-checks.ts';
import { agentOf } from './subject.ts';

export interface RelationPair {
  relation: string;
  object: string;
}

/** The subject of a token's claims: `user:<sub>`, with `agent:<act.sub>` when an agent holds the token. */
export function subjectOfClaims(claims: Record<string, unknown>): { user: string; agent?: string } {
  return { user: `user:${String(claims.sub)}`, agent: agentOf(claims) };
}

export async function requireRelations(
  deps: Pick<Deps, 'fga'>,
  subject: { user: string; agent?: string },
  pairs: readonly RelationPair[] | undefined,
  /** The transport request's permission-check budget (request-budget.ts), shared with aliased root fields. */
  budget?: RequestBudget,
): Promise<void> {
  if (!pairs?.length) return;
  budget?.spend(pairs.length);
  const service = requireFga(deps);
  const model = await service.requireModel();
  const run = { service, model, subject, engine: service.engineFor(model) };
  const allowed = await checkAll(run, pairs, 'required_relations');
  const missing = pairs.find((_, index) => !allowed[index]);
  if (missing) throw AppError.forbidden(`missing required relation ${missing.relation} on ${missing.object}`);
}
