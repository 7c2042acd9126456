/**
 * List objects (docs/operations.md#list_permissions): the objects of `type` on which `user` has `relation`.
 *
 * Two phases. First a reverse expansion from the user upward collects candidates: every object that could
 * hold the relation, following only the granting side of each rewrite (a union or intersection child, the
 * base of `but not`), through direct tuples, wildcards, usersets, computed usersets and tuple-to-userset
 * (model-index.ts keeps these edges reversed). It over-approximates on purpose: intersections and
 * exclusions are not decided there. Then each candidate is confirmed by a real check through the same
 * resolver chain and cache, so the answer has exactly check's semantics (including cycles, conditions and
 * contextual tuples), which OpenFGA's own harness requires of list objects; except a candidate reached by
 * a path that already is check's answer (`proven`, see Work), which is listed as it is found: an org admin's
 * 10,000 documents then cost a few reverse reads instead of 10,000 checks (bench/fga-scale.ts).
 */
import type { ModelIndex } from './model-index.ts';
import type { RequestReader } from './reads.ts';
import type { CheckResolver } from './check.ts';
import { rootCheck } from './check.ts';
import { drain, settleBounded } from './concurrency.ts';
import { objectType, parseUser, usersetOf, wildcardOf } from './tuple-strings.ts';

export interface ListObjectsQuery {
  user: string;
  type: string;
  relation: string;
  /** Stop after this many objects (`truncated` tells that more may exist). */
  maxResults?: number;
}

export interface ListObjectsResult {
  objects: string[];
  truncated: boolean;
}

/**
 * A step of the expansion. `proven` says the step is already a check's answer: every relation on the way
 * is union-only (model-index.ts isUnionOnly), every tuple read on the way comes from a relation that takes
 * no condition, the user is a plain object, and the path is short enough for check's depth limit (`hops`
 * counts usersets and tuple-to-userset, as check does). Along such a path check follows the same tuples
 * downward and a union is true as soon as one child is (rewrites.ts), so a candidate reached that way is
 * listed without its confirming check, as OpenFGA's reverse expansion does for such edges; every other
 * candidate is still confirmed by a check.
 */
type Work =
  | { kind: 'subject'; user: string; reference: string; proven: boolean; hops: number }
  | { kind: 'has'; object: string; relation: string; proven: boolean; hops: number };

/** Expansion steps in flight at once: their reads of one turn are merged (reads.ts), so more in flight is fewer queries. */
const EXPANSION_CONCURRENCY = 500;
/** Candidates confirmed by a check at once: their reads of one turn are merged too. */
const CONFIRM_CONCURRENCY = 100;

interface Deps {
  index: ModelIndex;
  reader: RequestReader;
  head: CheckResolver;
  concurrency: number;
  maxDepth: number;
}

export async function listObjects(query: ListObjectsQuery, deps: Deps): Promise<ListObjectsResult> {
  const candidates = await collectCandidates(query, deps);
  const max = query.maxResults ?? Number.POSITIVE_INFINITY;
  const objects = [...candidates].filter(([, proven]) => proven).map(([object]) => object);
  const unproven = [...candidates].filter(([, proven]) => !proven).map(([object]) => object);
  let failure: unknown;
  let failed = false;
  if (objects.length <= max) {
    await settleBounded(unproven, Math.max(deps.concurrency, CONFIRM_CONCURRENCY), (object) => rootCheck(deps.head, object, query.relation, query.user).then((outcome) => ({ object, outcome })), (settled) => {
      if (settled.status === 'rejected') {
        failed = true;
        failure = settled.reason;
        return true;
      }
      if (settled.value.outcome.allowed) objects.push(settled.value.object);
      return objects.length > max;
    });
  }
  if (failed) throw failure;
  const truncated = objects.length > max;
  return { objects: truncated ? objects.slice(0, max) : objects, truncated };
}

/** Each candidate object, and whether it is proven (see Work). */
async function collectCandidates(query: ListObjectsQuery, { index, reader, maxDepth }: Deps): Promise<Map<string, boolean>> {
  const candidates = new Map<string, boolean>();
  /** `object#relation` reached so far, and whether proven; an unproven one is expanded again once proven. */
  const seen = new Map<string, boolean>();
  const initial: Work[] = [];
  // check throws past maxDepth levels; a proven path stays a level short of it (check.ts #memberOfAny).
  const withinDepth = (hops: number) => hops + 2 <= maxDepth;

  const has = (object: string, relation: string, proven: boolean, hops: number, push: (work: Work) => void) => {
    const key = usersetOf(object, relation);
    const known = seen.get(key);
    if (known === true || (known === false && !proven)) return;
    seen.set(key, proven);
    if (relation === query.relation && objectType(object) === query.type) candidates.set(object, proven);
    push({ kind: 'has', object, relation, proven, hops });
  };

  const user = parseUser(query.user);
  if (user.kind === 'userset') {
    // A userset holds its own relation (check's self-definition), and everything that relation feeds.
    has(`${user.type}:${user.id}`, user.relation, false, 0, (work) => initial.push(work));
  } else {
    const proven = user.kind === 'object';
    if (user.kind === 'object') initial.push({ kind: 'subject', user: query.user, reference: user.type, proven, hops: 0 });
    initial.push({ kind: 'subject', user: wildcardOf(user.type), reference: wildcardOf(user.type), proven, hops: 0 });
  }

  await drain(initial, EXPANSION_CONCURRENCY, async (work, push) => {
    if (work.kind === 'subject') {
      // Direct tuples naming this subject, on every relation whose type restrictions admit it.
      const dependents = index.reverse.directDependents(work.reference);
      await Promise.all(dependents.map(async ({ type, relation }) => {
        if (!index.reverse.thisPositive(type, relation)) return;
        const proven = work.proven && index.isUnionOnly(type, relation) && !index.mayHaveConditions(type, relation);
        for (const tuple of await reader.byUser(type, relation, work.user)) has(tuple.object, relation, proven, work.hops, push);
      }));
      return;
    }
    const type = objectType(work.object);
    // The userset `object#relation` as the subject of other tuples: one more level for check.
    const hops = work.hops + 1;
    const deeper = work.proven && withinDepth(hops);
    push({ kind: 'subject', user: usersetOf(work.object, work.relation), reference: `${type}#${work.relation}`, proven: deeper, hops });
    for (const relation of index.reverse.computedDependents(type, work.relation)) {
      has(work.object, relation, work.proven && index.isUnionOnly(type, relation), work.hops, push);
    }
    await Promise.all(index.reverse.ttuDependents(type, work.relation).map(async (edge) => {
      const proven = deeper && index.isUnionOnly(edge.childType, edge.relation) && !index.mayHaveConditions(edge.childType, edge.tupleset);
      for (const tuple of await reader.byUser(edge.childType, edge.tupleset, work.object)) has(tuple.object, edge.relation, proven, hops, push);
    }));
  });
  return candidates;
}
