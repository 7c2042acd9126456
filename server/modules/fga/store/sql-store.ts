/**
 * The FGA store on a SQL database through MikroORM (docs/api-overview.md#what-portcullis-does: the main SQL database by default,
 * its own tables on the same connection, or a separate one for --fga-store sqlite|postgres|mysql): tables
 * fga_models and fga_tuples (fga-model.entity.ts, fga-tuple.entity.ts). A batch of writes and deletes is
 * one transaction: any refused tuple (duplicate in the batch, already stored, or missing for a delete)
 * leaves the store unchanged. The engine's reads (readObjectRelation, readObjectRelations, readByUsers)
 * are index seeks in hand-written parameterised SQL below the ORM (raw-tuple-reads.ts), since the engine
 * makes many per check; everything else goes through the EntityManager.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../../kernel/deps.ts';
import type { AppError } from '../../../kernel/errors.ts';
import { isUniqueViolation } from '../../../storage/errors.ts';
import type { Storage } from '../../../storage/types.ts';
import { FGA_ERROR, fgaError } from '../model/fga-errors.ts';
import { parseObject, parseUser } from '../model/identifiers.ts';
import type { AuthorizationModel, FgaStore, ReadFilter, ReadPage, StoredModel, TupleKey } from '../types.ts';
import { FgaModel, type FgaModelRow } from './fga-model.entity.ts';
import { FgaTuple, type FgaTupleRow } from './fga-tuple.entity.ts';
import { createRawTupleReads } from './raw-tuple-reads.ts';
import { decodeContinuation, encodeContinuation, parseReadFilter, resolvePageSize } from './read-query.ts';
import { sortableId } from './sortable-id.ts';
import { alreadyExists, doesNotExist, keyParts, partsKey, partsToTuple, prepareBatch, type TupleRowData } from './tuple-rows.ts';

/** Keys per `$or` lookup and rows per insert: well inside every driver's bound-parameter limit. */
const LOOKUP_CHUNK = 50;
const INSERT_CHUNK = 500;

export interface SqlFgaStoreOptions {
  clock?: Clock;
  /** Close `storage` with the store (a separate --fga-store database); the main database is not closed. */
  ownsStorage?: boolean;
}

/** Raised inside the batch transaction to roll it back when a delete finds fewer tuples than asked. */
class BatchRefused extends Error {}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function toStoredModel(row: FgaModelRow): StoredModel {
  return { id: row.id, dsl: row.dsl, model: row.model, createdAt: row.createdAt };
}

function rowToTuple(row: FgaTupleRow): TupleKey {
  return partsToTuple({ ...row, conditionName: row.conditionName ?? null, conditionContext: row.conditionContext ?? null });
}

/** The stored rows among `rows`, by tuple identity: one indexed lookup per chunk. */
async function findExisting(em: EntityManager, rows: readonly TupleRowData[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const chunk of chunks(rows, LOOKUP_CHUNK)) {
    const hits = await em.find(FgaTuple, { $or: chunk.map(keyParts) }, { disableIdentityMap: true });
    for (const hit of hits) found.set(partsKey(hit), hit.id);
  }
  return found;
}

export function createSqlFgaStore(storage: Pick<Storage, 'kind' | 'fork' | 'close'>, options: SqlFgaStoreOptions = {}): FgaStore {
  if (storage.kind === 'mongodb') throw new Error('the SQL FGA store needs a SQL database, not MongoDB');
  const now = () => (options.clock ? options.clock.now() : new Date());
  const readOptions = { disableIdentityMap: true } as const;
  const reads = createRawTupleReads(storage);

  /**
   * The happy path costs one statement per chunk: deletes by key, counting what they removed, and plain
   * inserts that the unique key guards. Any shortfall or clash aborts the transaction; the offending tuple
   * is then looked up to name it (explainRefusal).
   */
  async function applyBatch(em: EntityManager, writes: readonly TupleRowData[], deletes: readonly TupleRowData[]): Promise<void> {
    for (const chunk of chunks(deletes, LOOKUP_CHUNK)) {
      const removed = await em.nativeDelete(FgaTuple, { $or: chunk.map(keyParts) });
      if (removed !== chunk.length) throw new BatchRefused();
    }
    const createdAt = now();
    for (const chunk of chunks(writes, INSERT_CHUNK)) {
      await em.insertMany(FgaTuple, chunk.map((row) => ({ ...row, id: sortableId(), createdAt })));
    }
  }

  /** After a refused batch (rolled back): the first missing delete or already stored write, by name. */
  async function explainRefusal(writes: readonly TupleRowData[], deletes: readonly TupleRowData[]): Promise<AppError> {
    const em = storage.fork();
    const stored = await findExisting(em, deletes);
    const missing = deletes.find((row) => !stored.has(partsKey(row)));
    if (missing) return doesNotExist(missing);
    const clashing = await findExisting(em, writes);
    const existing = writes.find((row) => clashing.has(partsKey(row)));
    if (existing) return alreadyExists(existing);
    // Another writer changed these tuples between the refusal and this lookup.
    return fgaError(FGA_ERROR.writeFailedDueToInvalidInput, 'cannot apply the tuples: a concurrent write changed them; nothing was written');
  }

  return {
    kind: storage.kind,

    async writeModel(dsl: string, model: AuthorizationModel): Promise<StoredModel> {
      const em = storage.fork();
      const row = em.create(FgaModel, { id: sortableId(), dsl, model, createdAt: now() });
      await em.flush();
      return toStoredModel(row);
    },

    async currentModel(): Promise<StoredModel | undefined> {
      const [row] = await storage.fork().find(FgaModel, {}, { orderBy: { id: 'desc' }, limit: 1, ...readOptions });
      return row ? toStoredModel(row) : undefined;
    },

    async writeTuples(writes: readonly TupleKey[], deletes: readonly TupleKey[]): Promise<void> {
      const batch = prepareBatch(writes, deletes);
      if (batch.writes.length === 0 && batch.deletes.length === 0) return;
      try {
        await storage.fork().transactional((em) => applyBatch(em, batch.writes, batch.deletes));
      } catch (err) {
        if (err instanceof BatchRefused || isUniqueViolation(err)) throw await explainRefusal(batch.writes, batch.deletes);
        throw err;
      }
    },

    async read(filter: ReadFilter, pageSize: number, continuationToken?: string): Promise<ReadPage> {
      const parsed = parseReadFilter(filter);
      const size = resolvePageSize(pageSize);
      const after = decodeContinuation(continuationToken, parsed);
      const where = after === undefined ? { ...parsed } : { ...parsed, id: { $gt: after } };
      const rows = await storage.fork().find(FgaTuple, where, { orderBy: { id: 'asc' }, limit: size + 1, ...readOptions });
      const page = rows.slice(0, size);
      const last = page.at(-1);
      return {
        tuples: page.map(rowToTuple),
        ...(rows.length > size && last ? { continuation_token: encodeContinuation(last.id, parsed) } : {}),
      };
    },

    async readObjectRelation(object: string, relation: string): Promise<TupleKey[]> {
      const parsed = parseObject(object);
      return parsed ? reads.byObject(parsed.type, parsed.id, relation) : [];
    },

    async readObjectRelations(objectType: string, relation: string, objectIds: readonly string[]): Promise<TupleKey[]> {
      return reads.byObjects(objectType, relation, [...new Set(objectIds)]);
    },

    async readByUsers(objectType: string, relation: string, users: readonly string[]): Promise<TupleKey[]> {
      // One statement per (user type, userset relation): every column of fga_tuples_by_user is then
      // constrained, so each user is a seek.
      const groups = new Map<string, { userType: string; userRelation: string; ids: Set<string> }>();
      for (const user of users) {
        const parsed = parseUser(user);
        if (!parsed) continue;
        const userRelation = parsed.relation ?? '';
        const key = JSON.stringify([parsed.type, userRelation]);
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { userType: parsed.type, userRelation, ids: new Set() }));
        group.ids.add(parsed.id);
      }
      const queries = [...groups.values()].map((g) => reads.byUsers(g.userType, g.userRelation, objectType, relation, [...g.ids]));
      return (await Promise.all(queries)).flat();
    },

    async countTuples(): Promise<number> {
      return storage.fork().count(FgaTuple, {});
    },

    async reset(): Promise<void> {
      await storage.fork().transactional(async (em) => {
        await em.nativeDelete(FgaTuple, {});
        await em.nativeDelete(FgaModel, {});
      });
    },

    async close(): Promise<void> {
      if (options.ownsStorage) await storage.close();
    },
  };
}
