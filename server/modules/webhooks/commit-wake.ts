/**
 * Wake on commit: a MikroORM event subscriber on the app's ORM that calls the delivery worker as soon as a
 * transaction that recorded an event (modules/events recordEvent, whatever module called it) has committed,
 * instead of leaving the event to the next poll. The poll stays, slower, for what this instance's commits
 * cannot announce: events written by other instances, retries they scheduled, leases that ran out.
 *
 * An event flushed outside a transaction is committed when the flush returns. One flushed inside a
 * transaction becomes visible when that transaction commits; inside a savepoint, when the outermost
 * transaction around it commits (which the event does not name, so the next outermost commit wakes the worker;
 * waking once too often only costs an empty pass). A rollback drops the event and wakes nothing.
 */
import type { EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';
import { EventOutbox } from '../events/index.ts';

type TransactionContext = object & { savepointName?: string };

/** Transactions remembered at most: one whose end never came (a dead connection) must not stay forever. */
const MAX_PENDING = 1000;

export class EventCommitWaker implements EventSubscriber {
  readonly #pending = new Set<TransactionContext>();
  readonly #wake: () => void;
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
    const recorded = args.uow.getChangeSets().some((changeSet) => changeSet.type === 'create' && changeSet.meta.className === EventOutbox.meta.className);
    if (!recorded) return;
    const transaction = args.em.isInTransaction() ? (args.em.getTransactionContext() as TransactionContext | undefined) : undefined;
    if (!transaction) return this.#wake();
    if (this.#pending.size >= MAX_PENDING) this.#pending.clear();
    this.#pending.add(transaction);
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    const transaction = args.transaction as TransactionContext | undefined;
    if (this.#closed || !transaction) return;
    const outermost = transaction.savepointName === undefined;
    if (this.#pending.delete(transaction)) {
      if (outermost) this.#wake();
      else this.#outerPending = true;
    } else if (outermost && this.#outerPending) {
      this.#outerPending = false;
      this.#wake();
    }
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    if (args.transaction) this.#pending.delete(args.transaction as TransactionContext);
  }
}
