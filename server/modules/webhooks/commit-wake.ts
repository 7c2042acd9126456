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
 *
 * The commit is announced with the names of the events it recorded, so the worker can leave alone commits
 * whose events no webhook listens to (subscribed-events.ts), and with whether it created or changed a webhook,
 * so that view is forgotten as soon as such a change is visible.
 */
import type { EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';
import { EventOutbox } from '../events/index.ts';
import { Webhook } from './webhook.entity.ts';

type TransactionContext = object & { savepointName?: string };

/** What a committed transaction wrote that the worker cares about. */
export interface Committed {
  /** Names of the events it recorded. */
  eventNames: Set<string>;
  /** It created or changed a webhook (subscribed-events.ts must forget what it knows). */
  webhooksChanged: boolean;
}

/** Transactions remembered at most: one whose end never came (a dead connection) must not stay forever. */
const MAX_PENDING = 1000;

function merge(into: Committed, from: Committed): void {
  for (const name of from.eventNames) into.eventNames.add(name);
  into.webhooksChanged ||= from.webhooksChanged;
}

export class EventCommitWaker implements EventSubscriber {
  readonly #pending = new Map<TransactionContext, Committed>();
  readonly #committed: (committed: Committed) => void;
  /** What committed savepoints wrote, announced at the next outermost commit. */
  #outerPending: Committed | undefined;
  #closed = false;

  constructor(committed: (committed: Committed) => void) {
    this.#committed = committed;
  }

  close(): void {
    this.#closed = true;
    this.#pending.clear();
  }

  afterFlush(args: FlushEventArgs): void {
    if (this.#closed) return;
    const written: Committed = { eventNames: new Set(), webhooksChanged: false };
    for (const changeSet of args.uow.getChangeSets()) {
      const className = changeSet.meta.className;
      if (changeSet.type === 'create' && className === EventOutbox.meta.className) written.eventNames.add((changeSet.entity as { eventName: string }).eventName);
      else if (className === Webhook.meta.className) written.webhooksChanged = true;
    }
    if (written.eventNames.size === 0 && !written.webhooksChanged) return;
    const transaction = args.em.isInTransaction() ? (args.em.getTransactionContext() as TransactionContext | undefined) : undefined;
    if (!transaction) return this.#committed(written);
    const pending = this.#pending.get(transaction);
    if (pending) return merge(pending, written);
    if (this.#pending.size >= MAX_PENDING) this.#pending.clear();
    this.#pending.set(transaction, written);
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    const transaction = args.transaction as TransactionContext | undefined;
    if (this.#closed || !transaction) return;
    const outermost = transaction.savepointName === undefined;
    const own = this.#pending.get(transaction);
    if (own) this.#pending.delete(transaction);
    if (!outermost) {
      if (own) {
        if (this.#outerPending) merge(this.#outerPending, own);
        else this.#outerPending = own;
      }
      return;
    }
    const saved = this.#outerPending;
    this.#outerPending = undefined;
    if (own && saved) merge(own, saved);
    const committed = own ?? saved;
    if (committed) this.#committed(committed);
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    if (args.transaction) this.#pending.delete(args.transaction as TransactionContext);
  }
}
