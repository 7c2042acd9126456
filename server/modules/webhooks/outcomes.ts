/**
 * Recording attempt outcomes in batches (group commit): outcomes that finish while one batch commits wait
 * and commit together in the next, each batch one transaction (one fsync) writing every attempt's
 * WebhookLog (docs/events.md#the-delivery: one log per attempt) and every delivery's new state. A caller's
 * promise settles once its outcome is committed, so the worker holds the delivery (and its slot) until then.
 *
 * Each state change is a compare-and-set on the claim (`id`, `attempts`, `status = sending`), grouped by
 * `attempts` where the new state is shared: a row whose lease ran out and that another instance claimed
 * meanwhile is left to that instance. A batch whose transaction fails loses no event: its rows stay claimed
 * until their lease runs out and are then sent again, with the same delivery id (at least once).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import { WebhookDelivery, WebhookLog } from './webhook.entity.ts';
import type { ClaimedDelivery } from './claim.ts';

/** Outcomes committed in one transaction at most. */
const MAX_BATCH = 256;

export type Outcome =
  /** Answered 2xx: the row is deleted (its logs remain). */
  | { kind: 'delivered'; row: ClaimedDelivery; log: AttemptLog }
  /** Refused address or last attempt failed. */
  | { kind: 'failed'; row: ClaimedDelivery; log: AttemptLog }
  | { kind: 'retry'; row: ClaimedDelivery; log: AttemptLog; next: Date }
  /** The webhook was deleted or disabled since the fan-out: nothing was sent, the row goes. */
  | { kind: 'dropped'; row: ClaimedDelivery }
  /** Cut short by shutdown: the claim is handed back uncounted. */
  | { kind: 'handed-back'; row: ClaimedDelivery };

export interface AttemptLog {
  webhookId: string;
  httpStatus: number;
  request: string;
  response: string;
  at: Date;
}

interface Queued {
  outcome: Outcome;
  settle: (err?: unknown) => void;
}

export interface OutcomeRecorder {
  /** Settles once committed; rejects when its batch's transaction failed. */
  record(outcome: Outcome): Promise<void>;
  /** Resolves once everything queued is committed (or has failed). */
  drained(): Promise<void>;
}

function claimOf(row: ClaimedDelivery) {
  return { id: row.id, attempts: row.attempts, status: 'sending' };
}

/** The claims of `rows`, one filter per `attempts` value. */
function claimsGrouped(rows: readonly ClaimedDelivery[]) {
  const byAttempts = new Map<number, string[]>();
  for (const row of rows) {
    const ids = byAttempts.get(row.attempts);
    if (ids) ids.push(row.id);
    else byAttempts.set(row.attempts, [row.id]);
  }
  return [...byAttempts].map(([attempts, ids]) => ({ id: { $in: ids }, attempts, status: 'sending' }));
}

async function writeBatch(em: EntityManager, outcomes: readonly Outcome[], now: Date): Promise<void> {
  for (const outcome of outcomes) {
    if (!('log' in outcome)) continue;
    const { log, row } = outcome;
    em.persist(em.create(WebhookLog, {
      id: randomUUID(), webhookId: log.webhookId, deliveryId: row.id, httpStatus: log.httpStatus, request: log.request, response: log.response,
      createdAt: log.at, updatedAt: log.at,
    }));
  }
  await em.flush();
  const gone = outcomes.filter((o) => o.kind === 'delivered' || o.kind === 'dropped').map((o) => o.row);
  for (const claim of claimsGrouped(gone)) await em.nativeDelete(WebhookDelivery, claim);
  const failed = outcomes.filter((o) => o.kind === 'failed').map((o) => o.row);
  for (const claim of claimsGrouped(failed)) await em.nativeUpdate(WebhookDelivery, claim, { status: 'failed', leaseUntil: null, updatedAt: now });
  for (const outcome of outcomes) {
    if (outcome.kind === 'retry') {
      await em.nativeUpdate(WebhookDelivery, claimOf(outcome.row), { status: 'pending', leaseUntil: null, nextAttemptAt: outcome.next, updatedAt: now });
    } else if (outcome.kind === 'handed-back') {
      const row = outcome.row;
      await em.nativeUpdate(WebhookDelivery, claimOf(row), { status: 'pending', attempts: row.attempts - 1, leaseUntil: null, updatedAt: now });
    }
  }
}

export function createOutcomeRecorder(deps: () => Deps): OutcomeRecorder {
  const queue: Queued[] = [];
  let writing: Promise<void> | undefined;

  async function writeAll(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      const { storage, clock } = deps();
      try {
        await storage.fork().transactional((em) => writeBatch(em, batch.map((q) => q.outcome), clock.now()));
        for (const q of batch) q.settle();
      } catch (err) {
        for (const q of batch) q.settle(err);
      }
    }
  }

  function kick(): void {
    if (writing) return;
    writing = writeAll().finally(() => {
      writing = undefined;
      // Queued between the loop's last check and here.
      if (queue.length > 0) kick();
    });
  }

  return {
    record(outcome) {
      const done = new Promise<void>((resolve, reject) => queue.push({ outcome, settle: (err) => (err === undefined ? resolve() : reject(err)) }));
      kick();
      return done;
    },
    async drained() {
      while (writing) await writing;
    },
  };
}
