/**
 * What the resolvers need to know about one authorization model, computed once per model object and kept
 * in a WeakMap (the FGA service hands the same model object to every per-request engine).
 *
 * It answers the OpenFGA type-system questions the engine asks (relation rewrite, directly related user
 * types, public assignability, tupleset relations), decides whether a stored tuple is still valid under the
 * current model (OpenFGA reads filter out tuples written under an older model that no longer fit: type
 * restrictions, tupleset restrictions and condition presence), and holds the reverse edges list objects
 * walks upward. This is deliberately engine-private: the model module owns parsing and request validation.
 */
import type { AuthorizationModel, RelationReference, TupleKey, Userset } from '../types.ts';
import { objectType, parseUser } from './tuple-strings.ts';

/** A relation of `childType` whose rewrite holds `relation from tupleset` positively. */
export interface TtuEdge {
  childType: string;
  tupleset: string;
  relation: string;
}

export interface TypeRelation {
  type: string;
  relation: string;
}

export interface ModelIndex {
  readonly model: AuthorizationModel;
  hasType(type: string): boolean;
  relationsOf(type: string): string[];
  rewrite(type: string, relation: string): Userset | undefined;
  directTypes(type: string, relation: string): readonly RelationReference[];
  /** Direct types that are usersets (`group#member`). */
  usersetTypes(type: string, relation: string): readonly RelationReference[];
  /** Whether `[userType]` (plain, or `userType#userRelation`) is a direct type of the relation. */
  isDirectlyRelated(type: string, relation: string, userType: string, userRelation: string): boolean;
  /** Whether `[userType:*]` is a direct type of the relation. */
  isPubliclyAssignable(type: string, relation: string, userType: string): boolean;
  /** Whether a stored tuple still fits the model (OpenFGA ValidateTupleForRead semantics). */
  isValidForRead(tuple: TupleKey): boolean;
  conditionNames(): ReadonlySet<string>;
  /** Whether the relation is `[...]`, computed usersets, tuple-to-userset and `or` only: any granting child grants. */
  isUnionOnly(type: string, relation: string): boolean;
  /** Whether a tuple of the relation may carry a condition (one of its direct types names a condition). */
  mayHaveConditions(type: string, relation: string): boolean;
  /** Reverse edges for list objects (positive occurrences only: the subtracted side of `but not` never grants). */
  readonly reverse: {
    /** Relations of a type that directly hold their own tuples (`this` in a positive position). */
    thisPositive(type: string, relation: string): boolean;
    /** Relations of `type` that include `relation` as a computed userset. */
    computedDependents(type: string, relation: string): readonly string[];
    /** TTU edges fed by `parentType#relation`. */
    ttuDependents(parentType: string, relation: string): readonly TtuEdge[];
    /** Relations whose direct types admit the user reference (`user`, `user:*`, `group#member`). */
    directDependents(reference: string): readonly TypeRelation[];
  };
}

const cache = new WeakMap<AuthorizationModel, ModelIndex>();

export function indexModel(model: AuthorizationModel): ModelIndex {
  let index = cache.get(model);
  if (!index) {
    index = buildIndex(model);
    cache.set(model, index);
  }
  return index;
}

/** `user`, `user:*` or `group#member`: the key a user reference is indexed under. */
export function referenceKey(ref: RelationReference): string {
  if (ref.wildcard) return `${ref.type}:*`;
  if (ref.relation) return `${ref.type}#${ref.relation}`;
  return ref.type;
}

function buildIndex(model: AuthorizationModel): ModelIndex {
  const rewrites = new Map<string, Map<string, Userset>>();
  const direct = new Map<string, RelationReference[]>();
  const tuplesets = new Set<string>();
  const thisPositive = new Set<string>();
  const computed = new Map<string, string[]>();
  const ttu = new Map<string, TtuEdge[]>();
  const directDeps = new Map<string, TypeRelation[]>();
  const push = <V>(map: Map<string, V[]>, key: string, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };

  for (const definition of model.type_definitions) {
    const relations = new Map<string, Userset>(Object.entries(definition.relations ?? {}));
    rewrites.set(definition.type, relations);
    for (const [relation] of relations) {
      const types = definition.metadata?.relations?.[relation]?.directly_related_user_types ?? [];
      direct.set(`${definition.type}#${relation}`, types);
      for (const ref of types) push(directDeps, referenceKey(ref), { type: definition.type, relation });
    }
  }

  // Second pass: TTU edges need the parent types of each tupleset, known only after the first pass.
  for (const [type, relations] of rewrites) {
    for (const [relation, rewrite] of relations) {
      walk(rewrite, true, (leaf, positive) => {
        if (leaf.this && positive) thisPositive.add(`${type}#${relation}`);
        if (leaf.computedUserset && positive) push(computed, `${type}#${leaf.computedUserset.relation}`, relation);
        if (leaf.tupleToUserset) {
          const tupleset = leaf.tupleToUserset.tupleset.relation;
          tuplesets.add(`${type}#${tupleset}`);
          if (!positive) return;
          for (const parent of direct.get(`${type}#${tupleset}`) ?? []) {
            if (parent.wildcard || parent.relation) continue;
            push(ttu, `${parent.type}#${leaf.tupleToUserset.computedUserset.relation}`, { childType: type, tupleset, relation });
          }
        }
      });
    }
  }

  const conditions = new Set(Object.keys(model.conditions ?? {}));
  const directTypes = (type: string, relation: string) => direct.get(`${type}#${relation}`) ?? [];
  const rewrite = (type: string, relation: string) => rewrites.get(type)?.get(relation);

  function isValidForRead(tuple: TupleKey): boolean {
    const type = objectType(tuple.object);
    if (!rewrite(type, tuple.relation)) return false;
    const user = parseUser(tuple.user);
    // Tupleset relations take plain objects only (OpenFGA validateTuplesetRestrictions).
    if (tuplesets.has(`${type}#${tuple.relation}`) && user.kind !== 'object') return false;
    const refs = directTypes(type, tuple.relation);
    const matches = refs.filter((ref) => {
      if (ref.type !== user.type) return false;
      if (user.kind === 'userset') return ref.relation === user.relation;
      if (user.kind === 'wildcard') return !!ref.wildcard;
      return !ref.wildcard && !ref.relation;
    });
    if (matches.length === 0) return false;
    // A tuple without a condition needs an unconditioned restriction; one with a condition needs that
    // condition to exist and be allowed for the user type (OpenFGA validateCondition).
    if (!tuple.condition?.name) return matches.some((ref) => !ref.condition);
    if (!conditions.has(tuple.condition.name)) return false;
    return refs.some((ref) => ref.type === user.type && ref.condition === tuple.condition!.name);
  }

  return {
    model,
    hasType: (type) => rewrites.has(type),
    relationsOf: (type) => [...(rewrites.get(type)?.keys() ?? [])],
    rewrite,
    directTypes,
    usersetTypes: (type, relation) => directTypes(type, relation).filter((ref) => !!ref.relation),
    isDirectlyRelated: (type, relation, userType, userRelation) =>
      directTypes(type, relation).some(
        (ref) => ref.type === userType && !ref.wildcard && (ref.relation ?? '') === userRelation,
      ),
    isPubliclyAssignable: (type, relation, userType) =>
      directTypes(type, relation).some((ref) => ref.type === userType && !!ref.wildcard),
    isValidForRead,
    conditionNames: () => conditions,
    isUnionOnly: (type, relation) => {
      const found = rewrite(type, relation);
      return found !== undefined && unionOnly(found);
    },
    mayHaveConditions: (type, relation) => directTypes(type, relation).some((ref) => !!ref.condition),
    reverse: {
      thisPositive: (type, relation) => thisPositive.has(`${type}#${relation}`),
      computedDependents: (type, relation) => computed.get(`${type}#${relation}`) ?? [],
      ttuDependents: (parentType, relation) => ttu.get(`${parentType}#${relation}`) ?? [],
      directDependents: (reference) => directDeps.get(reference) ?? [],
    },
  };
}

function unionOnly(rewrite: Userset): boolean {
  if (rewrite.intersection || rewrite.difference) return false;
  return rewrite.union ? rewrite.union.child.every(unionOnly) : true;
}

/** Visits the leaves of a rewrite, telling whether each sits in a granting (not subtracted) position. */
function walk(rewrite: Userset, positive: boolean, visit: (leaf: Userset, positive: boolean) => void): void {
  if (rewrite.union) for (const child of rewrite.union.child) walk(child, positive, visit);
  else if (rewrite.intersection) for (const child of rewrite.intersection.child) walk(child, positive, visit);
  else if (rewrite.difference) {
    walk(rewrite.difference.base, positive, visit);
    walk(rewrite.difference.subtract, false, visit);
  } else visit(rewrite, positive);
}
