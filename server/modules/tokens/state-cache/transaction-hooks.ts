/**
 * How writes reach the token state cache: a MikroORM event subscriber registered on the app's ORM (every
 * fork and transaction of it carries the subscriber, so a write finds the cache through its own
 * EntityManager and no module-level state is needed).
 *
 * Each invalidation is applied twice: at once (this instance stops answering from memory while the write is
 * still uncommitted) and again after the transaction that made it commits or rolls back (the second one is
 * what closes the read race of invalidation-ledger.ts, and the one that is broadcast to other instances,
 * so they never learn of a change before it is visible in the database). A write outside a transaction has
 * committed when it returns: both happen at once.
 *
 * User, session and token-record rows changed through the unit of work (update_user, revoke_access,
 * deactivate_account, profile edits, ...) are found in the flush's change sets; bulk statements
 * (nativeUpdate, nativeDelete) do not pass through it, so their callers call invalidateTokenState.
 */
import type { EntityManager, EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';
import { User } from '../../users/index.ts';
import { Session } from '../../sessions/index.ts';
import { TokenRecord } from '../token-record.entity.ts';

/** What a write ended or changed: everything cached for that user, or for that session. */
export interface StateChange {
  userId?: string;
  sessionId?: string;
}

export function keysOfChange(change: StateChange): string[] {
  const keys: string[] = [];
  if (change.userId) keys.push(userKey(change.userId));
  if (change.sessionId) keys.push(sessionKey(change.sessionId));
  return keys;
}

export const userKey = (userId: string): string => `u:${userId}`;
export const sessionKey = (sessionId: string): string => `s:${sessionId}`;

export interface InvalidationTarget {
  /** Applied at the write, before its commit. */
  invalidateNow(keys: readonly string[]): void;
  /**
   * Applied once the write is committed (or rolled back) and broadcast to other instances; settles once the
   * broadcast is sent (or given up on), so the writer answers its client after the other instances were told.
   * Never rejects.
   */
  invalidateCommitted(keys: readonly string[]): Promise<void>;
}

type TransactionContext = object & { savepointName?: string };

/**
 * Open transactions tracked at most. A transaction whose end event never came (its rollback failed on a dead
 * connection) would otherwise stay forever; past the bound the oldest is treated as ended.
 */
const MAX_OPEN_TRANSACTIONS = 1000;

/** Rows of these entities decide whether a token or session is honoured. */
function keysOfFlush(args: FlushEventArgs): string[] {
  const keys: string[] = [];
  for (const changeSet of args.uow.getChangeSets()) {
    const name = changeSet.meta.className;
    const row = changeSet.entity as Record<string, unknown>;
    if (name === User.meta.className) keys.push(userKey(String(row.id)));
    else if (changeSet.type === 'create') continue;
    else if (name === Session.meta.className) keys.push(sessionKey(String(row.id)), userKey(String(row.userId)));
    else if (name === TokenRecord.meta.className) keys.push(sessionKey(String(row.sessionId)));
  }
  return keys;
}

export class TokenStateHooks implements EventSubscriber {
  /** Open transactions and savepoints, with how many begin events each has seen (MongoDB nests in one session). */
  readonly #open = new Map<TransactionContext, number>();
  readonly #pending = new Map<TransactionContext, Set<string>>();
  readonly #target: InvalidationTarget;
  #closed = false;

  constructor(target: InvalidationTarget) {
    this.#target = target;
  }

  close(): void {
    this.#closed = true;
    this.#open.clear();
    this.#pending.clear();
  }

  async invalidate(em: EntityManager, keys: readonly string[]): Promise<void> {
    if (this.#closed || keys.length === 0) return;
    this.#target.invalidateNow(keys);
    const transaction = em.isInTransaction() ? (em.getTransactionContext() as TransactionContext | undefined) : undefined;
    if (!transaction) return this.#target.invalidateCommitted(keys);
    // A transaction this subscriber did not see begin: wait for every open one to end instead.
    if (!this.#open.has(transaction)) return this.#deferToOpenTransactions(keys);
    this.#deferTo(transaction, keys);
  }

  afterTransactionStart(args: TransactionEventArgs): void {
    const transaction = args.transaction as TransactionContext | undefined;
    if (!transaction || this.#closed) return;
    this.#open.set(transaction, (this.#open.get(transaction) ?? 0) + 1);
    if (this.#open.size > MAX_OPEN_TRANSACTIONS) {
      const oldest = this.#open.keys().next().value as TransactionContext;
      this.#open.set(oldest, 1);
      void this.#ended(oldest);
    }
  }

  // MikroORM awaits these handlers: the commit returns once the other instances have been told.
  afterTransactionCommit(args: TransactionEventArgs): Promise<void> {
    return this.#ended(args.transaction as TransactionContext | undefined);
  }

  afterTransactionRollback(args: TransactionEventArgs): Promise<void> {
    return this.#ended(args.transaction as TransactionContext | undefined);
  }

  async afterFlush(args: FlushEventArgs): Promise<void> {
    const keys = keysOfFlush(args);
    if (keys.length > 0) await this.invalidate(args.em, keys);
  }

  #deferTo(transaction: TransactionContext, keys: readonly string[]): void {
    let pending = this.#pending.get(transaction);
    if (!pending) this.#pending.set(transaction, (pending = new Set()));
    for (const key of keys) pending.add(key);
  }

  async #deferToOpenTransactions(keys: readonly string[]): Promise<void> {
    const outermost = [...this.#open.keys()].filter((transaction) => transaction.savepointName === undefined);
    if (outermost.length === 0) return this.#target.invalidateCommitted(keys);
    for (const transaction of outermost) this.#deferTo(transaction, keys);
  }

  async #ended(transaction: TransactionContext | undefined): Promise<void> {
    if (!transaction) return;
    const depth = (this.#open.get(transaction) ?? 1) - 1;
    if (depth > 0) {
      this.#open.set(transaction, depth);
      return;
    }
    this.#open.delete(transaction);
    const pending = this.#pending.get(transaction);
    if (!pending) return;
    this.#pending.delete(transaction);
    // Releasing a savepoint commits nothing yet: its changes become visible when the transaction around it
    // commits. That transaction is not named by the event, so every open outer transaction waits for them.
    if (transaction.savepointName !== undefined) return this.#deferToOpenTransactions([...pending]);
    return this.#target.invalidateCommitted([...pending]);
  }
}

/** The cache hooks registered on the ORM this EntityManager belongs to (none when no cache is open). */
function hooksOf(em: EntityManager): TokenStateHooks[] {
  const found: TokenStateHooks[] = [];
  for (const subscriber of em.getEventManager().getSubscribers()) {
    if (subscriber instanceof TokenStateHooks) found.push(subscriber);
  }
  return found;
}

/**
 * Tells the token state cache that a bulk write through `em` ended or changed what is cached for a user or
 * a session. Call it after the statement; the cache re-applies it after the commit and broadcasts it (at
 * once when `em` is not in a transaction: then the returned promise settles once it is broadcast).
 */
export async function invalidateTokenState(em: EntityManager, change: StateChange): Promise<void> {
  const keys = keysOfChange(change);
  await Promise.all(hooksOf(em).map((hooks) => hooks.invalidate(em, keys)));
}
