/**
 * Fan-out: each committed event of the outbox (modules/events) becomes one WebhookDelivery per enabled
 * webhook of its name, in the transaction that also stamps the event's `deliveredAt` (here: "handed to
 * webhook delivery"). The stamp is a compare-and-set (`deliveredAt IS NULL`), so when several instances
 * share the database exactly one fans an event out; the others' updates match no row and they write nothing.
 * An event no webhook listens to is simply stamped.
 */
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../kernel/deps.ts';
import { EventOutbox, type EventOutboxRow } from '../events/index.ts';
import { Webhook, WebhookDelivery } from './webhook.entity.ts';

/** Oldest first, a bounded batch (the index on deliveredAt keeps this cheap as history grows). */
export function undeliveredEvents(deps: Deps, limit: number): Promise<EventOutboxRow[]> {
  return deps.storage.fork().find(EventOutbox, { deliveredAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit });
}

/**
 * Fans a batch of events out in one transaction; answers how many this instance won. The compare-and-set
 * updates run in the batch's order (oldest first), so two instances taking the same batch wait on each
 * other's row locks in the same order and never deadlock; the later one then matches no row.
 */
export async function fanOut(deps: Deps, events: readonly EventOutboxRow[]): Promise<number> {
  if (events.length === 0) return 0;
  const now = deps.clock.now();
  return deps.storage.fork().transactional(async (em) => {
    const won: EventOutboxRow[] = [];
    for (const event of events) {
      const updated = await em.nativeUpdate(EventOutbox, { id: event.id, deliveredAt: null }, { deliveredAt: now, attempts: event.attempts + 1 });
      if (updated === 1) won.push(event);
    }
    if (won.length === 0) return 0;
    const names = [...new Set(won.map((event) => event.eventName))];
    const hooks = await em.find(Webhook, { eventName: { $in: names }, enabled: true }, { orderBy: { id: 'asc' } });
    for (const event of won) {
      for (const hook of hooks) {
        if (hook.eventName !== event.eventName) continue;
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
    return won.length;
  });
}
