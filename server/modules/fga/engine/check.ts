/**
 * Check (docs/operations.md): does `user` have `relation` on `object`? OpenFGA's local resolver over schema 1.1
 * rewrites, written as a chain of resolvers behind one interface: the engine puts the per-request cache
 * in front of this local checker, and the checker hands every hop to another object (a userset tuple, a
 * tuple-to-userset parent) back to the head of the chain, so each hop is cached and counted.
 *
 * - Depth: each hop adds one level; past `maxDepth` the request fails (limits.ts), never the stack.
 * - Cycles: the path of `object#relation@user` keys visited so far travels with the request; meeting one
 *   again answers "not allowed" for that branch (flagged as a cycle so it is not cached).
 * - Bounded concurrency: each fan-out starts at most `concurrency` sub-checks at once and stops starting
 *   more once its verdict is known (rewrites.ts).
 */
import { AppError } from '../../../kernel/errors.ts';
import type { TupleKey, Userset } from '../types.ts';
import type { ModelIndex } from './model-index.ts';
import type { RequestReader } from './reads.ts';
import { tuplesMet, type RequestContext } from './conditions.ts';
import { resolutionTooComplex } from './limits.ts';
import { ALLOWED, CYCLE, DENIED, exclusion, intersection, union, type CheckOutcome, type CheckThunk } from './rewrites.ts';
import { checkKey, objectType, parseUser, userObject, userRelation, wildcardOf } from './tuple-strings.ts';

export interface CheckRequest {
  object: string;
  relation: string;
  user: string;
  /** Hops taken so far (usersets and tuple-to-userset). */
  depth: number;
  /** `object#relation@user` keys on the path to this sub-problem. */
  visited: ReadonlySet<string>;
}

export interface CheckResolver {
  resolveCheck(request: CheckRequest): Promise<CheckOutcome>;
}

export interface LocalCheckerOptions {
  index: ModelIndex;
  reader: RequestReader;
  maxDepth: number;
  concurrency: number;
  context?: RequestContext;
}

export class LocalChecker implements CheckResolver {
  readonly #options: LocalCheckerOptions;
  /** The head of the chain; hops go through it. Set by the engine after the chain is built. */
  delegate: CheckResolver = this;

  constructor(options: LocalCheckerOptions) {
    this.#options = options;
  }

  async resolveCheck(request: CheckRequest): Promise<CheckOutcome> {
    const { index, maxDepth } = this.#options;
    if (request.depth >= maxDepth) throw resolutionTooComplex(maxDepth);
    const key = checkKey(request.object, request.relation, request.user);
    if (request.visited.has(key)) return CYCLE;
    const visited = new Set(request.visited).add(key);
    const here: CheckRequest = { ...request, visited };

    // A userset is a member of itself: `group:1#member` has `member` on `group:1`.
    if (request.user === `${request.object}#${request.relation}`) return ALLOWED;

    const rewrite = index.rewrite(objectType(request.object), request.relation);
    if (!rewrite) {
      throw AppError.invalid(`relation '${request.relation}' is not defined on type '${objectType(request.object)}'`);
    }
    return this.#rewrite(here, rewrite);
  }

  #rewrite(request: CheckRequest, rewrite: Userset): Promise<CheckOutcome> {
    const { concurrency } = this.#options;
    if (rewrite.this) return this.#direct(request);
    if (rewrite.computedUserset) {
      // Same object, another relation: no hop, but the visited path still catches a loop.
      return this.resolveCheck({ ...request, relation: rewrite.computedUserset.relation });
    }
    if (rewrite.tupleToUserset) return this.#tupleToUserset(request, rewrite.tupleToUserset);
    if (rewrite.union) return union(rewrite.union.child.map((child) => () => this.#rewrite(request, child)), concurrency);
    if (rewrite.intersection) {
      return intersection(rewrite.intersection.child.map((child) => () => this.#rewrite(request, child)), concurrency);
    }
    if (rewrite.difference) {
      const { base, subtract } = rewrite.difference;
      return exclusion(() => this.#rewrite(request, base), () => this.#rewrite(request, subtract));
    }
    throw AppError.invalid('the model holds a relation rewrite the engine does not know');
  }

  /** A hop to another object: one level deeper, through the head of the chain. */
  #hop(request: CheckRequest, object: string, relation: string): CheckThunk {
    return () =>
      this.delegate.resolveCheck({ object, relation, user: request.user, depth: request.depth + 1, visited: request.visited });
  }

  /**
   * `this`: a tuple naming the user itself, a typed wildcard of the user's type, or a userset the user is
   * in (OpenFGA checkDirect: direct tuple, public wildcard and userset tuples, as one union, so a condition
   * that cannot be evaluated on one of them fails the check only when nothing else allows it).
   */
  async #direct(request: CheckRequest): Promise<CheckOutcome> {
    const { index, reader, context, concurrency } = this.#options;
    const type = objectType(request.object);
    const user = parseUser(request.user);
    const exactAllowed = index.isDirectlyRelated(type, request.relation, user.type, userRelation(request.user));
    const wildcardAllowed = user.kind !== 'userset' && index.isPubliclyAssignable(type, request.relation, user.type);
    const usersetTypes = index.usersetTypes(type, request.relation);
    if (!exactAllowed && !wildcardAllowed && usersetTypes.length === 0) return DENIED;

    const tuples = await reader.objectRelation(request.object, request.relation);
    const wildcard = wildcardOf(user.type);
    const branches: CheckThunk[] = [];
    // One branch per kind of tuple; each grants when one of its tuples' conditions is met.
    const grantIfMet = (matching: TupleKey[]): CheckThunk => async () => {
      const { met, error } = tuplesMet(index.model, matching, context);
      if (error) throw error;
      return met.length > 0 ? ALLOWED : DENIED;
    };
    if (exactAllowed) branches.push(grantIfMet(tuples.filter((tuple) => tuple.user === request.user)));
    if (wildcardAllowed) branches.push(grantIfMet(tuples.filter((tuple) => tuple.user === wildcard)));
    const usersetTuples = tuples.filter((tuple) => userRelation(tuple.user) !== '' && matchesUsersetType(usersetTypes, tuple));
    if (usersetTuples.length > 0) {
      branches.push(async () => {
        const { met, error } = tuplesMet(index.model, usersetTuples, context);
        if (error) throw error;
        const hops: CheckThunk[] = [];
        const direct = new Map<string, Set<string>>();
        for (const tuple of met) {
          const target = userRelation(tuple.user);
          const targetType = objectType(tuple.user);
          if (user.kind !== 'userset' && isDirectOnly(index, targetType, target)) {
            const key = `${targetType}#${target}`;
            direct.set(key, (direct.get(key) ?? new Set()).add(userObject(tuple.user)));
          } else hops.push(this.#hop(request, userObject(tuple.user), target));
        }
        for (const [key, objects] of direct) {
          const [targetType, target] = key.split('#') as [string, string];
          hops.push(() => this.#memberOfAny(request, targetType, target, objects));
        }
        return union(hops, concurrency);
      });
    }
    return union(branches, concurrency);
  }

  /**
   * Whether the user holds `relation` on any of `objects` of `type`, when that relation is assigned
   * directly only (its tuples name users, never usersets): one reverse read of the user's tuples on that
   * relation, shared by every check of the request, instead of one read per object (OpenFGA's weight-2
   * shortcut). Wildcard tuples of the user's type count when the relation allows them.
   */
  async #memberOfAny(request: CheckRequest, type: string, relation: string, objects: ReadonlySet<string>): Promise<CheckOutcome> {
    const { index, reader, context } = this.#options;
    if (request.depth + 1 >= this.#options.maxDepth) throw resolutionTooComplex(this.#options.maxDepth);
    const user = parseUser(request.user);
    const subjects = [request.user];
    if (user.kind === 'object' && index.isPubliclyAssignable(type, relation, user.type)) subjects.push(wildcardOf(user.type));
    const found = (await Promise.all(subjects.map((subject) => reader.byUser(type, relation, subject)))).flat();
    const { met, error } = tuplesMet(index.model, found.filter((tuple) => objects.has(tuple.object)), context);
    if (error) throw error;
    return met.length > 0 ? ALLOWED : DENIED;
  }

  /** `relation from tupleset`: the relation on each object the tupleset points to. */
  async #tupleToUserset(request: CheckRequest, ttu: NonNullable<Userset['tupleToUserset']>): Promise<CheckOutcome> {
    const { index, reader, context, concurrency } = this.#options;
    const tuples = await reader.objectRelation(request.object, ttu.tupleset.relation);
    const { met, error } = tuplesMet(index.model, tuples, context);
    if (error) throw error;
    const hops: CheckThunk[] = [];
    for (const tuple of met) {
      const parent = userObject(tuple.user);
      // OpenFGA skips parents whose type lacks the computed relation (allowed by the model for multi-type tuplesets).
      if (!index.rewrite(objectType(parent), ttu.computedUserset.relation)) continue;
      hops.push(this.#hop(request, parent, ttu.computedUserset.relation));
    }
    return hops.length === 0 ? DENIED : union(hops, concurrency);
  }
}

/** A relation whose only rewrite is `[...]` with no userset among its types: membership is one tuple. */
function isDirectOnly(index: ModelIndex, type: string, relation: string): boolean {
  const rewrite = index.rewrite(type, relation);
  return !!rewrite?.this && index.usersetTypes(type, relation).length === 0;
}

function matchesUsersetType(usersetTypes: ReturnType<ModelIndex['usersetTypes']>, tuple: TupleKey): boolean {
  const type = objectType(tuple.user);
  const relation = userRelation(tuple.user);
  return usersetTypes.some((ref) => ref.type === type && ref.relation === relation);
}

/** Resolves one top-level check through the chain head. */
export function rootCheck(head: CheckResolver, object: string, relation: string, user: string): Promise<CheckOutcome> {
  return head.resolveCheck({ object, relation, user, depth: 0, visited: new Set() });
}
