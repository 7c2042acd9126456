/**
 * The reader one request resolves against: the store (with contextual tuples overlaid), filtered to the
 * tuples that still fit the current model (OpenFGA drops tuples written under an older model that no
 * longer validate, rather than failing), memoised for the life of the request (the same object#relation
 * is read once however many branches need it; sharing an in-flight read is safe because a read never waits
 * on a resolver), and bounded in how many store reads run at once. The reads issued in one turn of the
 * event loop are merged into one call per object type and relation: of one relation on many objects when
 * the source can (TupleSource.readObjectRelations), and of many users' tuples (TupleSource.readByUsers, the
 * reverse reads of list objects and of check's direct-membership shortcut). A batch of concurrent checks, or
 * one level of a list objects expansion, then costs a few queries instead of a few per object.
 */
import type { TupleKey, TupleSource } from '../types.ts';
import type { ModelIndex } from './model-index.ts';
import { Semaphore } from './concurrency.ts';
import { splitObject } from './tuple-strings.ts';

/** Keys (object ids or users) per merged read: well inside every database's bound-parameter limit. */
const MAX_KEYS_PER_READ = 500;

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
    ? mergedReads(source.readObjectRelations.bind(source), semaphore, (tuple) => splitObject(tuple.object).id)
    : (type: string, relation: string, id: string) => semaphore.use(() => source.readObjectRelation(`${type}:${id}`, relation));
  const readByUser = mergedReads(source.readByUsers.bind(source), semaphore, (tuple) => tuple.user);

  return {
    objectRelation: (object, relation) => {
      const { type, id } = splitObject(object);
      return remember(`o\u0000${object}\u0000${relation}`, () => readObjectRelation(type, relation, id));
    },
    byUser: (type, relation, user) => remember(`u\u0000${type}\u0000${relation}\u0000${user}`, () => readByUser(type, relation, user)),
  };
}

/** Reads `relation` tuples on objects of `type` for many keys at once (object ids, or users). */
type BatchRead = (type: string, relation: string, keys: readonly string[]) => Promise<TupleKey[]>;

/**
 * Collects single-key reads until the current turn of the event loop ends (setImmediate), then issues one
 * batch read per type and relation and hands each caller the tuples of its key (`keyOf` tells a tuple's).
 */
function mergedReads(readMany: BatchRead, semaphore: Semaphore, keyOf: (tuple: TupleKey) => string): (type: string, relation: string, key: string) => Promise<TupleKey[]> {
  type Waiter = { resolve: (tuples: TupleKey[]) => void; reject: (err: unknown) => void };
  let pending = new Map<string, { type: string; relation: string; waiters: Map<string, Waiter[]> }>();
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const groups = pending;
    pending = new Map();
    for (const { type, relation, waiters } of groups.values()) {
      const keys = [...waiters.keys()];
      for (let i = 0; i < keys.length; i += MAX_KEYS_PER_READ) {
        const chunk = keys.slice(i, i + MAX_KEYS_PER_READ);
        semaphore.use(() => readMany(type, relation, chunk)).then(
          (tuples) => {
            const byKey = new Map<string, TupleKey[]>();
            for (const tuple of tuples) {
              const key = keyOf(tuple);
              const list = byKey.get(key);
              if (list) list.push(tuple);
              else byKey.set(key, [tuple]);
            }
            for (const key of chunk) for (const waiter of waiters.get(key) ?? []) waiter.resolve(byKey.get(key) ?? []);
          },
          (err: unknown) => {
            for (const key of chunk) for (const waiter of waiters.get(key) ?? []) waiter.reject(err);
          },
        );
      }
    }
  };

  return (type, relation, key) =>
    new Promise<TupleKey[]>((resolve, reject) => {
      const groupKey = `${type}\u0000${relation}`;
      let group = pending.get(groupKey);
      if (!group) pending.set(groupKey, (group = { type, relation, waiters: new Map() }));
      const list = group.waiters.get(key);
      if (list) list.push({ resolve, reject });
      else group.waiters.set(key, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
