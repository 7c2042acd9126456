/**
 * List objects (docs/operations.md#list_permissions): the objects of `type` on which `user` has `relation`.
 *
 * Two phases. First a reverse expansion from the user upward collects candidates: every object that could
 * hold the relation, following only the granting side of each rewrite (a union or intersection child, the
 * base of `but not`), through direct tuples, wildcards, usersets, computed usersets and tuple-to-userset
 * (model-index.ts keeps these edges reversed). It over-approximates on purpose: intersections and
 * exclusions are not decided there. Then each candidate is confirmed by a real check through the same
 * resolver chain and cache, so the answer has exactly check's semantics (including cycles, conditions and
 * contextual tuples), which OpenFGA's own harness requires of list objects.
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

type Work = { kind: 'subject'; user: string; reference: string } | { kind: 'has'; object: string; relation: string };

export async function listObjects(
  query: ListObjectsQuery,
  deps: { index: ModelIndex; reader: RequestReader; head: CheckResolver; concurrency: number },
): Promise<ListObjectsResult> {
  const candidates = await collectCandidates(query, deps);
  const objects: string[] = [];
  const max = query.maxResults ?? Number.POSITIVE_INFINITY;
  let failure: unknown;
  let failed = false;
  await settleBounded([...candidates], deps.concurrency, (object) => rootCheck(deps.head, object, query.relation, query.user).then((outcome) => ({ object, outcome })), (settled) => {
    if (settled.status === 'rejected') {
      failed = true;
      failure = settled.reason;
      return true;
    }
    if (settled.value.outcome.allowed) objects.push(settled.value.object);
    return objects.length > max;
  });
  if (failed) throw failure;
  const truncated = objects.length > max;
  return { objects: truncated ? objects.slice(0, max) : objects, truncated };
}

async function collectCandidates(
  query: ListObjectsQuery,
  { index, reader, concurrency }: { index: ModelIndex; reader: RequestReader; concurrency: number },
): Promise<Set<string>> {
  const candidates = new Set<string>();
  const seen = new Set<string>();
  const initial: Work[] = [];

  const has = (object: string, relation: string, push: (work: Work) => void) => {
    const key = usersetOf(object, relation);
    if (seen.has(key)) return;
    seen.add(key);
    if (relation === query.relation && objectType(object) === query.type) candidates.add(object);
    push({ kind: 'has', object, relation });
  };

  const user = parseUser(query.user);
  if (user.kind === 'userset') {
    // A userset holds its own relation (check's self-definition), and everything that relation feeds.
    has(`${user.type}:${user.id}`, user.relation, (work) => initial.push(work));
  } else {
    if (user.kind === 'object') initial.push({ kind: 'subject', user: query.user, reference: user.type });
    initial.push({ kind: 'subject', user: wildcardOf(user.type), reference: wildcardOf(user.type) });
  }

  await drain(initial, concurrency, async (work, push) => {
    if (work.kind === 'subject') {
      // Direct tuples naming this subject, on every relation whose type restrictions admit it.
      const dependents = index.reverse.directDependents(work.reference);
      await Promise.all(dependents.map(async ({ type, relation }) => {
        if (!index.reverse.thisPositive(type, relation)) return;
        for (const tuple of await reader.byUser(type, relation, work.user)) has(tuple.object, relation, push);
      }));
      return;
    }
    const type = objectType(work.object);
    // The userset `object#relation` as the subject of other tuples.
    push({ kind: 'subject', user: usersetOf(work.object, work.relation), reference: `${type}#${work.relation}` });
    for (const relation of index.reverse.computedDependents(type, work.relation)) has(work.object, relation, push);
    await Promise.all(index.reverse.ttuDependents(type, work.relation).map(async (edge) => {
      for (const tuple of await reader.byUser(edge.childType, edge.tupleset, work.object)) has(tuple.object, edge.relation, push);
    }));
  });
  return candidates;
}
