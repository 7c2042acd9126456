/**
 * Read-only questions about one authorization model, answered from lookup tables built once: which types
 * and relations exist, a relation's rewrite, the user types a relation may be assigned directly
 * (`directly_related_user_types`), and which relations are tuplesets of a tuple-to-userset. Tuple and
 * request validation and the engine use it; `typeSystemFor(model)` keeps one per model object.
 */
import type { AuthorizationModel, RelationReference, TypeDefinition, Userset } from '../types.ts';

const NO_REFERENCES: readonly RelationReference[] = Object.freeze([]);

/** True when the rewrite assigns users directly (`[...]` in the DSL), anywhere in its tree. */
export function rewriteContainsThis(rewrite: Userset): boolean {
  if (rewrite.this) return true;
  if (rewrite.union) return rewrite.union.child.some(rewriteContainsThis);
  if (rewrite.intersection) return rewrite.intersection.child.some(rewriteContainsThis);
  if (rewrite.difference) return rewriteContainsThis(rewrite.difference.base) || rewriteContainsThis(rewrite.difference.subtract);
  return false;
}

function collectTuplesets(rewrite: Userset, into: Set<string>): void {
  if (rewrite.tupleToUserset) into.add(rewrite.tupleToUserset.tupleset.relation);
  for (const child of rewrite.union?.child ?? rewrite.intersection?.child ?? []) collectTuplesets(child, into);
  if (rewrite.difference) {
    collectTuplesets(rewrite.difference.base, into);
    collectTuplesets(rewrite.difference.subtract, into);
  }
}

export class TypeSystem {
  readonly model: AuthorizationModel;
  private readonly types = new Map<string, TypeDefinition>();
  private readonly tuplesets = new Map<string, ReadonlySet<string>>();

  constructor(model: AuthorizationModel) {
    this.model = model;
    for (const typeDef of model.type_definitions ?? []) {
      this.types.set(typeDef.type, typeDef);
      const tuplesets = new Set<string>();
      for (const rewrite of Object.values(typeDef.relations ?? {})) collectTuplesets(rewrite, tuplesets);
      this.tuplesets.set(typeDef.type, tuplesets);
    }
  }

  get schemaVersion(): string {
    return this.model.schema_version;
  }

  typeNames(): string[] {
    return [...this.types.keys()];
  }

  hasType(type: string): boolean {
    return this.types.has(type);
  }

  typeDefinition(type: string): TypeDefinition | undefined {
    return this.types.get(type);
  }

  relationNames(type: string): string[] {
    return Object.keys(this.types.get(type)?.relations ?? {});
  }

  hasRelation(type: string, relation: string): boolean {
    return this.relation(type, relation) !== undefined;
  }

  /** The relation's rewrite, or undefined when the type or the relation is not defined. */
  relation(type: string, relation: string): Userset | undefined {
    const relations = this.types.get(type)?.relations;
    return relations && Object.hasOwn(relations, relation) ? relations[relation] : undefined;
  }

  /** The `[...]` type restrictions of `type#relation` (empty when it has none or does not exist). */
  directlyRelatedTypes(type: string, relation: string): readonly RelationReference[] {
    const metadata = this.types.get(type)?.metadata?.relations;
    if (!metadata || !Object.hasOwn(metadata, relation)) return NO_REFERENCES;
    return metadata[relation]?.directly_related_user_types ?? NO_REFERENCES;
  }

  /** True when tuples may be written for `type#relation`: its rewrite contains `this`. */
  isDirectlyAssignable(type: string, relation: string): boolean {
    const rewrite = this.relation(type, relation);
    return rewrite !== undefined && rewriteContainsThis(rewrite);
  }

  /** `[userType]`: a concrete `userType:id` may be assigned. */
  allowsDirectType(type: string, relation: string, userType: string): boolean {
    return this.directlyRelatedTypes(type, relation).some((ref) => ref.type === userType && !ref.relation && !ref.wildcard);
  }

  /** `[userType:*]`: the typed wildcard may be assigned. */
  isWildcardAllowed(type: string, relation: string, userType: string): boolean {
    return this.directlyRelatedTypes(type, relation).some((ref) => ref.type === userType && ref.wildcard !== undefined);
  }

  /** `[userType#userRelation]`: the userset may be assigned. */
  allowsUserset(type: string, relation: string, userType: string, userRelation: string): boolean {
    return this.directlyRelatedTypes(type, relation).some((ref) => ref.type === userType && ref.relation === userRelation);
  }

  /** Relations of `type` used as the tupleset (`... from <relation>`) of some tuple-to-userset on it. */
  tuplesetRelations(type: string): ReadonlySet<string> {
    return this.tuplesets.get(type) ?? new Set();
  }

  isTuplesetRelation(type: string, relation: string): boolean {
    return this.tuplesets.get(type)?.has(relation) ?? false;
  }

  hasCondition(name: string): boolean {
    return Object.hasOwn(this.model.conditions ?? {}, name);
  }

  condition(name: string): unknown {
    return this.hasCondition(name) ? this.model.conditions![name] : undefined;
  }
}

const cache = new WeakMap<AuthorizationModel, TypeSystem>();

/** One TypeSystem per model object (models are never mutated after parsing). */
export function typeSystemFor(model: AuthorizationModel | TypeSystem): TypeSystem {
  if (model instanceof TypeSystem) return model;
  let typeSystem = cache.get(model);
  if (!typeSystem) {
    typeSystem = new TypeSystem(model);
    cache.set(model, typeSystem);
  }
  return typeSystem;
}
