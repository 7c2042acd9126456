/**
 * The shared vocabulary of the embedded FGA engine: OpenFGA's authorization model JSON (schema
 * 1.1, as @openfga/syntax-transformer produces it from the DSL), relationship tuples, and the two storage
 * seams: FgaStore (what operations use) and TupleSource (what the engine reads). Model parsing and the
 * stores live in model/ and store/; the engine in engine/; the operations in fga.ops.ts.
 */

/** OpenFGA userset rewrite (schema 1.1). Exactly one key is set. */
export interface Userset {
  this?: Record<string, never>;
  computedUserset?: { object?: string; relation: string };
  tupleToUserset?: { tupleset: { object?: string; relation: string }; computedUserset: { object?: string; relation: string } };
  union?: { child: Userset[] };
  intersection?: { child: Userset[] };
  difference?: { base: Userset; subtract: Userset };
}

/** A type a relation may be assigned directly: `user`, `user:*` (wildcard) or `group#member` (userset). */
export interface RelationReference {
  type: string;
  relation?: string;
  wildcard?: Record<string, never>;
  condition?: string;
}

export interface TypeDefinition {
  type: string;
  relations?: Record<string, Userset>;
  metadata?: {
    relations?: Record<string, { directly_related_user_types?: RelationReference[] }>;
  } | null;
}

export interface AuthorizationModel {
  schema_version: string;
  type_definitions: TypeDefinition[];
  conditions?: Record<string, unknown>;
}

/** A stored model version: models are versioned and append-only; the newest is current. */
export interface StoredModel {
  id: string;
  dsl: string;
  model: AuthorizationModel;
  createdAt: Date;
}

/** A relationship tuple. `user` is `type:id`, `type:*` or `type:id#relation`; `object` is `type:id`. */
export interface TupleKey {
  user: string;
  relation: string;
  object: string;
  condition?: { name: string; context?: Record<string, unknown> };
}

export interface ReadFilter {
  /** `type:id`, or `type:` for every object of a type. */
  object?: string;
  relation?: string;
  user?: string;
}

export interface ReadPage {
  tuples: TupleKey[];
  /** Opaque; absent when there is nothing more. */
  continuation_token?: string;
}

/** What the engine reads. Implementations answer from a store, with contextual tuples overlaid. */
export interface TupleSource {
  /** Every tuple on exactly `object` (type:id) with `relation`. */
  readObjectRelation(object: string, relation: string): Promise<TupleKey[]>;
  /**
   * Tuples whose object is of `objectType` with `relation` and whose user is one of `users` (each
   * `type:id`, `type:*` or `type:id#relation`): the reverse lookups of list objects.
   */
  readByUsers(objectType: string, relation: string, users: readonly string[]): Promise<TupleKey[]>;
  /**
   * Optional batch form of readObjectRelation: every tuple with `relation` on the objects `objectType:id`
   * for each id in `objectIds` (one query). When a source has it, the engine merges the reads that
   * concurrent sub-problems issue in the same turn of the event loop into one call per type and relation.
   */
  readObjectRelations?(objectType: string, relation: string, objectIds: readonly string[]): Promise<TupleKey[]>;
}

/** The FGA storage behind the operations: models, tuples, reset. One per server. */
export interface FgaStore extends TupleSource {
  readonly kind: 'memory' | 'sqlite' | 'postgres' | 'mysql' | 'mariadb';
  writeModel(dsl: string, model: AuthorizationModel): Promise<StoredModel>;
  /** The newest model, or undefined on an empty store. */
  currentModel(): Promise<StoredModel | undefined>;
  /** Writes and deletes atomically: all or none. Writing an existing tuple or deleting a missing one fails. */
  writeTuples(writes: readonly TupleKey[], deletes: readonly TupleKey[]): Promise<void>;
  read(filter: ReadFilter, pageSize: number, continuationToken?: string): Promise<ReadPage>;
  countTuples(): Promise<number>;
  /** Deletes models and tuples. The caller refuses while tuples exist (docs/api-overview.md#states-and-transitions). */
  reset(): Promise<void>;
  close(): Promise<void>;
}
