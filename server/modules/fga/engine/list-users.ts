/**
 * List users (docs/operations.md): the users matching the type filters that have `relation` on `object`.
 * Results are strings: `user:1` (an object), `user:*` (a typed wildcard: every user of the type) or
 * `group:1#member` (a userset, for a filter with a relation), as OpenFGA's ListUsers returns them.
 *
 * Like list objects, two phases: a downward expansion from `object#relation` gathers candidates along the
 * granting side of each rewrite (OpenFGA's rules for what is reported: an object or wildcard tuple user
 * whose type a filter names; a userset `type:id#relation` reached on the way when a filter names exactly
 * that type and relation, the requested userset itself included), then each candidate is confirmed by a
 * check. Subtracted branches and intersections are therefore decided exactly as check decides them.
 */
import type { ModelIndex } from './model-index.ts';
import type { RequestReader } from './reads.ts';
import type { CheckResolver } from './check.ts';
import type { TupleKey, Userset } from '../types.ts';
import { rootCheck } from './check.ts';
import { conditionMet, type RequestContext } from './conditions.ts';
import { drain, settleBounded } from './concurrency.ts';
import { objectType, parseUser, usersetOf } from './tuple-strings.ts';

export interface UserFilter {
  type: string;
  relation?: string;
}

export interface ListUsersQuery {
  object: string;
  relation: string;
  userFilters: readonly UserFilter[];
  maxResults?: number;
}

export interface ListUsersResult {
  users: string[];
  truncated: boolean;
}

export async function listUsers(
  query: ListUsersQuery,
  deps: { index: ModelIndex; reader: RequestReader; head: CheckResolver; concurrency: number; context?: RequestContext },
): Promise<ListUsersResult> {
  const candidates = await collectCandidates(query, deps);
  const users: string[] = [];
  const max = query.maxResults ?? Number.POSITIVE_INFINITY;
  let failure: unknown;
  let failed = false;
  await settleBounded([...candidates], deps.concurrency, (user) => rootCheck(deps.head, query.object, query.relation, user).then((outcome) => ({ user, outcome })), (settled) => {
    if (settled.status === 'rejected') {
      failed = true;
      failure = settled.reason;
      return true;
    }
    if (settled.value.outcome.allowed) users.push(settled.value.user);
    return users.length > max;
  });
  if (failed) throw failure;
  const truncated = users.length > max;
  return { users: truncated ? users.slice(0, max) : users, truncated };
}

async function collectCandidates(
  query: ListUsersQuery,
  { index, reader, concurrency, context }: { index: ModelIndex; reader: RequestReader; concurrency: number; context?: RequestContext },
): Promise<Set<string>> {
  const candidates = new Set<string>();
  // OpenFGA's ListUsers fails when any condition met on the way cannot be evaluated, even if other
  // paths found users; an unmet condition closes its path.
  const granting = (tuples: readonly TupleKey[]) => tuples.filter((tuple) => conditionMet(index.model, tuple, context));
  const seen = new Set<string>();
  const filterTypes = new Set(query.userFilters.map((filter) => filter.type));
  const filterUsersets = new Set(query.userFilters.filter((f) => f.relation).map((f) => `${f.type}#${f.relation}`));

  type Work = { object: string; relation: string };
  const visit = (object: string, relation: string, push: (work: Work) => void) => {
    const key = usersetOf(object, relation);
    if (seen.has(key)) return;
    seen.add(key);
    if (filterUsersets.has(`${objectType(object)}#${relation}`)) candidates.add(key);
    push({ object, relation });
  };

  const initial: Work[] = [];
  visit(query.object, query.relation, (work) => initial.push(work));

  await drain(initial, concurrency, async ({ object, relation }, push) => {
    const rewrite = index.rewrite(objectType(object), relation);
    if (!rewrite) return;
    const leaves: Userset[] = [];
    grantingLeaves(rewrite, leaves);
    for (const leaf of leaves) {
      if (leaf.this) {
        for (const tuple of granting(await reader.objectRelation(object, relation))) {
          const user = parseUser(tuple.user);
          if (user.kind === 'userset') visit(`${user.type}:${user.id}`, user.relation, push);
          else if (filterTypes.has(user.type)) candidates.add(tuple.user);
        }
      } else if (leaf.computedUserset) {
        visit(object, leaf.computedUserset.relation, push);
      } else if (leaf.tupleToUserset) {
        const computed = leaf.tupleToUserset.computedUserset.relation;
        for (const tuple of granting(await reader.objectRelation(object, leaf.tupleToUserset.tupleset.relation))) {
          if (index.rewrite(objectType(tuple.user), computed)) visit(tuple.user, computed, push);
        }
      }
    }
  });
  return candidates;
}

/** The leaves that can grant: every child of a union or intersection, the base of an exclusion. */
function grantingLeaves(rewrite: Userset, into: Userset[]): void {
  if (rewrite.union) for (const child of rewrite.union.child) grantingLeaves(child, into);
  else if (rewrite.intersection) for (const child of rewrite.intersection.child) grantingLeaves(child, into);
  else if (rewrite.difference) grantingLeaves(rewrite.difference.base, into);
  else into.push(rewrite);
}
