/**
 * The reader one request resolves against: the store (with contextual tuples overlaid), filtered to the
 * tuples that still fit the current model (OpenFGA drops tuples written under an older model that no
 * longer validate, rather than failing), memoised for the life of the request (the same object#relation
 * is read once however many branches need it; sharing an in-flight read is safe because a read never waits
 * on a resolver), and bounded in how many store reads run at once.
 */
import type { TupleKey, TupleSource } from '../types.ts';
import type { ModelIndex } from './model-index.ts';
import { Semaphore } from './concurrency.ts';

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
      promise = semaphore.use(read).then(valid);
      // A failed read is not remembered: a retry within the request may succeed.
      promise.catch(() => memo.delete(key));
      memo.set(key, promise);
    }
    return promise;
  }

  return {
    objectRelation: (object, relation) =>
      remember(`o\u0000${object}\u0000${relation}`, () => source.readObjectRelation(object, relation)),
    byUser: (type, relation, user) =>
      remember(`u\u0000${type}\u0000${relation}\u0000${user}`, () => source.readByUsers(type, relation, [user])),
  };
}
