/**
 * Wake on commit for the back-channel logout worker (worker.ts), as the webhook worker is woken
 * (modules/webhooks commit-wake.ts, docs/events.md#the-delivery): a MikroORM event subscriber on the app's ORM
 * that calls the worker as soon as a transaction that queued a logout delivery (session-clients.ts, in the
 * transaction that ended the session) has committed, instead of leaving it to the poll. The poll stays, slow,
 * for what this instance's commits cannot announce: deliveries queued by other instances and leases that ran
 * out; the worker's own retry timer covers the retries it scheduled.
 *
 * A delivery flushed outside a transaction is committed when the flush returns. One flushed inside a
 * transaction becomes visible when that transaction commits; inside a savepoint, when the outermost
 * transaction around it commits, which the savepoint does not name, so the next outermost commit wakes the
 * worker (one wake too many costs an empty pass). A rollback drops the delivery and wakes nothing.
 */
import type { EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';
import { BackchannelLogoutDelivery } from './backchannel.entity.ts';

/** Transactions remembered at most: one whose end never came (a dead connection) must not stay forever. */
const MAX_PENDING = 1000;

export class DeliveryCommitWaker implements EventSubscriber {
  readonly #pending = new Set<object>();
  readonly #wake: () => void;
  /** A committed savepoint queued a delivery: the next outermost commit wakes. */
  #outerPending = false;
  #closed = false;

  constructor(wake: () => void) {
    this.#wake = wake;
  }

  close(): void {
    this.#closed = true;
    this.#pending.clear();
  }

  afterFlush(args: FlushEventArgs): void {
    if (this.#closed) return;
    const queued = args.uow.getChangeSets().some((changeSet) => changeSet.type === 'create' && changeSet.meta.className === BackchannelLogoutDelivery.meta.className);
    if (!queued) return;
    const transaction = args.em.isInTransaction() ? (args.em.getTransactionContext() as object | undefined) : undefined;
    if (!transaction) return this.#wake();
    if (this.#pending.size >= MAX_PENDING) this.#pending.clear();
    this.#pending.add(transaction);
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    const transaction = args.transaction as (object & { savepointName?: string }) | undefined;
    if (this.#closed || !transaction) return;
    const own = this.#pending.delete(transaction);
    if (transaction.savepointName !== undefined) {
      this.#outerPending ||= own;
      return;
    }
    const saved = this.#outerPending;
    this.#outerPending = false;
    if (own || saved) this.#wake();
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    if (args.transaction) this.#pending.delete(args.transaction as object);
  }
}
