/**
 * The reader one request resolves against: the store (with contextual tuples overlaid), filtered to the
 * tuples that still fit the current model (OpenFGA drops tuples written under an older model that no
 * longer validate, rather than failing), memoised for the life of the request (the same object#relation
 * is read once however many branches need it; sharing an in-flight read is safe because a read never waits
 * on a resolver), and bounded in how many store reads run at once. When the source can read one relation
 * on many objects at once (TupleSource.readObjectRelations), the reads issued in one turn of the event loop
 * are merged into one call per object type and relation: a batch of concurrent checks then costs a few
 * queries per level of the model instead of a few per check.
 */
import type { TupleKey, TupleSource } from '../types.ts';
import type { ModelIndex } from './model-index.ts';
import { Semaphore } from './concurrency.ts';
import { splitObject } from './tuple-strings.ts';

/** Object ids per merged read: well inside every database's bound-parameter limit. */
const MAX_IDS_PER_READ = 500;

export interface RequestReader {
  /** Valid tuples on exactly `object` with `relation`. */
  objectRelation(object: string, relation: string): Promise<readonly TupleKey[]>;
  /** Valid tuples on objects of `type` with `relation` whose user is `user`. */
  byUser(type: string, relation: string, user: string): Promise<readonly TupleKey[]>;
}

export function createRequestReader(source: TupleSource, index: ModelIndex, maxConcurrentReads: number): RequestReader {
  const semaphore = new Semaphore(maxConcurrentReads);
  const memo = new Map<string, Promise<readonly TupleKey[]>>();
  const valid = (tuples: TupleKey[]) => tuples.filter((tuple) => index.isValidForRead(tuple));

  function remember(key: string, read: () => Promise<TupleKey[]>): Promise<readonly TupleKey[]> {
    let promise = memo.get(key);
    if (!promise) {
      promise = read().then(valid);
      // A failed read is not remembered: a retry within the request may succeed.
      promise.catch(() => memo.delete(key));
      memo.set(key, promise);
    }
    return promise;
  }

  const readObjectRelation = source.readObjectRelations
    ? mergedObjectRelationReads(source.readObjectRelations.bind(source), semaphore)
    : (object: string, relation: string) => semaphore.use(() => source.readObjectRelation(object, relation));

  return {
    objectRelation: (object, relation) => remember(`o\u0000${object}\u0000${relation}`, () => readObjectRelation(object, relation)),
    byUser: (type, relation, user) =>
      remember(`u\u0000${type}\u0000${relation}\u0000${user}`, () => semaphore.use(() => source.readByUsers(type, relation, [user]))),
  };
}

type BatchRead = (objectType: string, relation: string, objectIds: readonly string[]) => Promise<TupleKey[]>;

/**
 * Collects single-object reads until the current turn of the event loop ends (setImmediate), then issues
 * one batch read per object type and relation and hands each caller its object's tuples.
 */
function mergedObjectRelationReads(readMany: BatchRead, semaphore: Semaphore): (object: string, relation: string) => Promise<TupleKey[]> {
  type Waiter = { resolve: (tuples: TupleKey[]) => void; reject: (err: unknown) => void };
  let pending = new Map<string, { type: string; relation: string; waiters: Map<string, Waiter[]> }>();
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const groups = pending;
    pending = new Map();
    for (const { type, relation, waiters } of groups.values()) {
      const ids = [...waiters.keys()];
      for (let i = 0; i < ids.length; i += MAX_IDS_PER_READ) {
        const chunk = ids.slice(i, i + MAX_IDS_PER_READ);
        semaphore.use(() => readMany(type, relation, chunk)).then(
          (tuples) => {
            const byId = new Map<string, TupleKey[]>();
            for (const tuple of tuples) {
              const id = splitObject(tuple.object).id;
              const list = byId.get(id);
              if (list) list.push(tuple);
              else byId.set(id, [tuple]);
            }
            for (const id of chunk) for (const waiter of waiters.get(id) ?? []) waiter.resolve(byId.get(id) ?? []);
          },
          (err: unknown) => {
            for (const id of chunk) for (const waiter of waiters.get(id) ?? []) waiter.reject(err);
          },
        );
      }
    }
  };

  return (object, relation) =>
    new Promise<TupleKey[]>((resolve, reject) => {
      const { type, id } = splitObject(object);
      const groupKey = `${type}\u0000${relation}`;
      let group = pending.get(groupKey);
      if (!group) pending.set(groupKey, (group = { type, relation, waiters: new Map() }));
      const list = group.waiters.get(id);
      if (list) list.push({ resolve, reject });
      else group.waiters.set(id, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
