/**
 * Expand (docs/operations.md; OpenFGA Expand): the userset tree of `object#relation`, one level deep, as a
 * JSON-serialisable object in OpenFGA's shape:
 *
 *   { tree: { root: { name: 'document:1#viewer', union: { nodes: [ ... ] } } } }
 *
 * A node has `name` and one of `leaf` (`users` { users: [...] } for direct tuples, `computed`
 * { userset } for a computed userset, `tupleToUserset` { tupleset, computed: [{ userset }] }), `union` or
 * `intersection` ({ nodes }), or `difference` ({ base, subtract }). Usersets in the leaves are not
 * expanded further: a caller expands them with another call, as in OpenFGA.
 */
import { AppError } from '../../../kernel/errors.ts';
import type { Userset } from '../types.ts';
import type { ModelIndex } from './model-index.ts';
import type { RequestReader } from './reads.ts';
import { objectType, usersetOf } from './tuple-strings.ts';

export interface ExpandNode {
  name: string;
  leaf?:
    | { users: { users: string[] } }
    | { computed: { userset: string } }
    | { tupleToUserset: { tupleset: string; computed: Array<{ userset: string }> } };
  union?: { nodes: ExpandNode[] };
  intersection?: { nodes: ExpandNode[] };
  difference?: { base: ExpandNode; subtract: ExpandNode };
}

export interface ExpandResult {
  tree: { root: ExpandNode };
}

export async function expand(
  query: { object: string; relation: string },
  deps: { index: ModelIndex; reader: RequestReader },
): Promise<ExpandResult> {
  const rewrite = deps.index.rewrite(objectType(query.object), query.relation);
  if (!rewrite) throw AppError.invalid(`relation '${query.relation}' is not defined on type '${objectType(query.object)}'`);
  return { tree: { root: await node(query.object, query.relation, rewrite, deps) } };
}

async function node(object: string, relation: string, rewrite: Userset, deps: { index: ModelIndex; reader: RequestReader }): Promise<ExpandNode> {
  const name = usersetOf(object, relation);
  if (rewrite.this) {
    const tuples = await deps.reader.objectRelation(object, relation);
    return { name, leaf: { users: { users: [...new Set(tuples.map((tuple) => tuple.user))].sort() } } };
  }
  if (rewrite.computedUserset) return { name, leaf: { computed: { userset: usersetOf(object, rewrite.computedUserset.relation) } } };
  if (rewrite.tupleToUserset) {
    const { tupleset, computedUserset } = rewrite.tupleToUserset;
    const tuples = await deps.reader.objectRelation(object, tupleset.relation);
    const computed = [...new Set(tuples.map((tuple) => tuple.user))]
      .filter((parent) => deps.index.rewrite(objectType(parent), computedUserset.relation))
      .sort()
      .map((parent) => ({ userset: usersetOf(parent, computedUserset.relation) }));
    return { name, leaf: { tupleToUserset: { tupleset: usersetOf(object, tupleset.relation), computed } } };
  }
  if (rewrite.union) return { name, union: { nodes: await Promise.all(rewrite.union.child.map((c) => node(object, relation, c, deps))) } };
  if (rewrite.intersection) {
    return { name, intersection: { nodes: await Promise.all(rewrite.intersection.child.map((c) => node(object, relation, c, deps))) } };
  }
  if (rewrite.difference) {
    const [base, subtract] = await Promise.all([
      node(object, relation, rewrite.difference.base, deps),
      node(object, relation, rewrite.difference.subtract, deps),
    ]);
    return { name, difference: { base, subtract } };
  }
  throw AppError.invalid('the model holds a relation rewrite the engine does not know');
}
