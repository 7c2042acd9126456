/**
 * `--fga-store memory`: models and tuples in this process only (lost on restart; for tests, the
 * conformance run and single-instance trials). Same contract as the SQL store: atomic batches, OpenFGA's
 * duplicate and missing-tuple refusals, filtered reads in write order with continuation tokens, and the
 * engine's two read paths answered from hash indexes.
 */
import type { Clock } from '../../../kernel/deps.ts';
import { parseObject, parseUser } from '../model/identifiers.ts';
import type { AuthorizationModel, FgaStore, ReadFilter, ReadPage, StoredModel, TupleKey } from '../types.ts';
import { decodeContinuation, encodeContinuation, matchesFilter, parseReadFilter, resolvePageSize } from './read-query.ts';
import { sortableId } from './sortable-id.ts';
import { alreadyExists, doesNotExist, partsKey, partsToTuple, prepareBatch, type TupleRowData } from './tuple-rows.ts';

interface MemoryRow extends TupleRowData {
  id: string;
  key: string;
}

export interface MemoryFgaStoreOptions {
  clock?: Clock;
}

const objectRelationKey = (objectType: string, objectId: string, relation: string) => `${objectType}:${objectId}#${relation}`;
const userIndexKey = (objectType: string, relation: string, userType: string, userId: string, userRelation: string) =>
  JSON.stringify([objectType, relation, userType, userId, userRelation]);

function addTo(index: Map<string, Set<MemoryRow>>, key: string, row: MemoryRow): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(row);
}

function removeFrom(index: Map<string, Set<MemoryRow>>, key: string, row: MemoryRow): void {
  const set = index.get(key);
  set?.delete(row);
  if (set?.size === 0) index.delete(key);
}

export function createMemoryFgaStore(options: MemoryFgaStoreOptions = {}): FgaStore {
  const now = () => (options.clock ? options.clock.now() : new Date());
  const models: StoredModel[] = [];
  // Insertion order is id order (ids increase within a process), which read() pages through.
  const rows = new Map<string, MemoryRow>();
  const byObjectRelation = new Map<string, Set<MemoryRow>>();
  const byUser = new Map<string, Set<MemoryRow>>();

  const index = (row: MemoryRow) => {
    rows.set(row.key, row);
    addTo(byObjectRelation, objectRelationKey(row.objectType, row.objectId, row.relation), row);
    addTo(byUser, userIndexKey(row.objectType, row.relation, row.userType, row.userId, row.userRelation), row);
  };
  const unindex = (row: MemoryRow) => {
    rows.delete(row.key);
    removeFrom(byObjectRelation, objectRelationKey(row.objectType, row.objectId, row.relation), row);
    removeFrom(byUser, userIndexKey(row.objectType, row.relation, row.userType, row.userId, row.userRelation), row);
  };

  return {
    kind: 'memory',

    async writeModel(dsl: string, model: AuthorizationModel): Promise<StoredModel> {
      const stored: StoredModel = { id: sortableId(), dsl, model: structuredClone(model), createdAt: now() };
      models.push(stored);
      return { ...stored, model: structuredClone(stored.model) };
    },

    async currentModel(): Promise<StoredModel | undefined> {
      const newest = models.at(-1);
      return newest && { ...newest, model: structuredClone(newest.model) };
    },

    async writeTuples(writes: readonly TupleKey[], deletes: readonly TupleKey[]): Promise<void> {
      const batch = prepareBatch(writes, deletes);
      // Everything is checked before anything changes: all or none.
      for (const row of batch.deletes) if (!rows.has(partsKey(row))) throw doesNotExist(row);
      for (const row of batch.writes) if (rows.has(partsKey(row))) throw alreadyExists(row);
      for (const row of batch.deletes) unindex(rows.get(partsKey(row))!);
      for (const row of batch.writes) index({ ...row, id: sortableId(), key: partsKey(row) });
    },

    async read(filter: ReadFilter, pageSize: number, continuationToken?: string): Promise<ReadPage> {
      const parsed = parseReadFilter(filter);
      const size = resolvePageSize(pageSize);
      const after = decodeContinuation(continuationToken, parsed);
      const page: MemoryRow[] = [];
      let more = false;
      for (const row of rows.values()) {
        if (after !== undefined && row.id <= after) continue;
        if (!matchesFilter(row, parsed)) continue;
        if (page.length === size) {
          more = true;
          break;
        }
        page.push(row);
      }
      const last = page.at(-1);
      return {
        tuples: page.map(partsToTuple),
        ...(more && last ? { continuation_token: encodeContinuation(last.id, parsed) } : {}),
      };
    },

    async readObjectRelation(object: string, relation: string): Promise<TupleKey[]> {
      const parsed = parseObject(object);
      if (!parsed) return [];
      return [...(byObjectRelation.get(objectRelationKey(parsed.type, parsed.id, relation)) ?? [])].map(partsToTuple);
    },

    async readObjectRelations(objectType: string, relation: string, objectIds: readonly string[]): Promise<TupleKey[]> {
      return [...new Set(objectIds)].flatMap((id) => [...(byObjectRelation.get(objectRelationKey(objectType, id, relation)) ?? [])].map(partsToTuple));
    },

    async readByUsers(objectType: string, relation: string, users: readonly string[]): Promise<TupleKey[]> {
      const found = new Set<MemoryRow>();
      for (const user of users) {
        const parsed = parseUser(user);
        if (!parsed) continue;
        for (const row of byUser.get(userIndexKey(objectType, relation, parsed.type, parsed.id, parsed.relation ?? '')) ?? []) found.add(row);
      }
      return [...found].map(partsToTuple);
    },

    async countTuples(): Promise<number> {
      return rows.size;
    },

    async reset(): Promise<void> {
      models.length = 0;
      rows.clear();
      byObjectRelation.clear();
      byUser.clear();
    },

    async close(): Promise<void> {},
  };
}
