/**
 * Fan-out: each committed event of the outbox (modules/events) becomes one WebhookDelivery per enabled
 * webhook of its name, in the transaction that also stamps the event's `deliveredAt` (here: "handed to
 * webhook delivery"). The stamp is a compare-and-set (`deliveredAt IS NULL`), so when several instances
 * share the database exactly one fans an event out; the others' updates match no row and they write nothing.
 * An event no webhook listens to is simply stamped.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import { EventOutbox, type EventOutboxRow } from '../events/index.ts';
import { Webhook, WebhookDelivery } from './webhook.entity.ts';
import { ERASURE_EVENT, erasedEventPayload } from './erased-event.ts';

/** Oldest first, a bounded batch (the index on deliveredAt keeps this cheap as history grows). */
export function undeliveredEvents(deps: Deps, limit: number): Promise<EventOutboxRow[]> {
  return deps.storage.fork().find(EventOutbox, { deliveredAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit });
}

/** Event ids by their `attempts` value: one compare-and-set statement per value (mostly one per batch). */
function idsByAttempts(events: readonly EventOutboxRow[]): Map<number, string[]> {
  const groups = new Map<number, string[]>();
  for (const event of events) {
    const ids = groups.get(event.attempts);
    if (ids) ids.push(event.id);
    else groups.set(event.attempts, [event.id]);
  }
  return groups;
}

/**
 * Stamps the batch with one compare-and-set per `attempts` value. All or nothing: if another instance
 * stamped any of them first, the counts differ and this answers undefined (the caller's transaction must
 * then be rolled back and the events stamped one by one).
 */
async function stampAll(em: EntityManager, events: readonly EventOutboxRow[], now: Date): Promise<EventOutboxRow[] | undefined> {
  for (const [attempts, ids] of idsByAttempts(events)) {
    const updated = await em.nativeUpdate(EventOutbox, { id: { $in: ids }, attempts, deliveredAt: null }, { deliveredAt: now, attempts: attempts + 1 });
    if (updated !== ids.length) return undefined;
  }
  return [...events];
}

/**
 * Stamps one event at a time, in the batch's order (oldest first), so that two instances taking the same
 * batch wait on each other's row locks in the same order and never deadlock; the later one matches no row.
 */
async function stampEach(em: EntityManager, events: readonly EventOutboxRow[], now: Date): Promise<EventOutboxRow[]> {
  const won: EventOutboxRow[] = [];
  for (const event of events) {
    const updated = await em.nativeUpdate(EventOutbox, { id: event.id, deliveredAt: null }, { deliveredAt: now, attempts: event.attempts + 1 });
    if (updated === 1) won.push(event);
  }
  return won;
}

class StampRaced extends Error {
  override readonly name = 'StampRaced';
}

async function fanOutWon(em: EntityManager, deps: Deps, won: readonly EventOutboxRow[], now: Date): Promise<number> {
  if (won.length === 0) return 0;
  const names = [...new Set(won.map((event) => event.eventName))];
  const hooks = await em.find(Webhook, { eventName: { $in: names }, enabled: true }, { orderBy: { id: 'asc' } });
  let created = 0;
  for (const event of won) {
    for (const hook of hooks) {
      if (hook.eventName !== event.eventName) continue;
      created += 1;
      em.persist(em.create(WebhookDelivery, {
        id: randomUUID(),
        eventId: event.id,
        webhookId: hook.id,
        eventName: event.eventName,
        payload: event.payload,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        leaseUntil: null,
        createdAt: now,
        updatedAt: now,
      }));
    }
  }
  await em.flush();
  // The deliveries hold their own copies: the outbox keeps only the pseudonym of an erased account (erased-event.ts).
  for (const event of won) {
    if (event.eventName === ERASURE_EVENT) await em.nativeUpdate(EventOutbox, { id: event.id }, { payload: erasedEventPayload(deps.config, event.payload) });
  }
  return created;
}

/**
 * Fans a batch of events out in one transaction; answers how many deliveries this instance created (none when
 * another instance won the events or no enabled webhook listens to them: then there is nothing to claim). The whole batch is
 * stamped at once (a statement per batch rather than per event); when another instance won some of it,
 * that transaction is rolled back and the batch is stamped event by event instead.
 */
export async function fanOut(deps: Deps, events: readonly EventOutboxRow[]): Promise<number> {
  if (events.length === 0) return 0;
  const now = deps.clock.now();
  try {
    return await deps.storage.fork().transactional(async (em) => {
      const won = await stampAll(em, events, now);
      if (!won) throw new StampRaced();
      return fanOutWon(em, deps, won, now);
    });
  } catch (err) {
    if (!(err instanceof StampRaced)) throw err;
  }
  return deps.storage.fork().transactional(async (em) => fanOutWon(em, deps, await stampEach(em, events, now), now));
}
