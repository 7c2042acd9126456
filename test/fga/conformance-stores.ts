/**
 * The stores the conformance cases run on. Until the store module lands, a small in-memory stand-in
 * (test-only) serves as the memory store.
 */
import type { AuthorizationModel, FgaStore, ReadFilter, ReadPage, StoredModel, TupleKey } from '../../server/modules/fga/types.ts';

export interface StoreUnderTest {
  label: string;
  /** An empty store: models and tuples of the previous case gone. */
  fresh(): Promise<FgaStore>;
  close(): Promise<void>;
}

const key = (tuple: TupleKey) => `${tuple.object}#${tuple.relation}@${tuple.user}`;
const typeOf = (object: string) => object.slice(0, object.indexOf(':'));

/** Test-only stand-in for createMemoryFgaStore. */
function standInMemoryStore(): FgaStore {
  const models: StoredModel[] = [];
  const tuples = new Map<string, TupleKey>();
  return {
    kind: 'memory',
    async writeModel(dsl: string, model: AuthorizationModel) {
      const stored = { id: String(models.length + 1), dsl, model, createdAt: new Date() };
      models.push(stored);
      return stored;
    },
    async currentModel() {
      return models.at(-1);
    },
    async writeTuples(writes, deletes) {
      for (const tuple of deletes) if (!tuples.has(key(tuple))) throw new Error(`missing ${key(tuple)}`);
      for (const tuple of writes) if (tuples.has(key(tuple))) throw new Error(`exists ${key(tuple)}`);
      for (const tuple of deletes) tuples.delete(key(tuple));
      for (const tuple of writes) tuples.set(key(tuple), { ...tuple });
    },
    async read(_filter: ReadFilter, _pageSize: number): Promise<ReadPage> {
      return { tuples: [...tuples.values()] };
    },
    async countTuples() {
      return tuples.size;
    },
    async reset() {
      models.length = 0;
      tuples.clear();
    },
    async close() {},
    async readObjectRelation(object, relation) {
      return [...tuples.values()].filter((t) => t.object === object && t.relation === relation);
    },
    async readByUsers(objectType, relation, users) {
      const wanted = new Set(users);
      return [...tuples.values()].filter((t) => typeOf(t.object) === objectType && t.relation === relation && wanted.has(t.user));
    },
  };
}

export function conformanceStores(only?: string[]): StoreUnderTest[] {
  const all: StoreUnderTest[] = [
    { label: 'memory', fresh: async () => standInMemoryStore(), close: async () => {} },
  ];
  return only ? all.filter((store) => only.includes(store.label)) : all;
}
