/**
 * Fan-out: each committed event of the outbox (modules/events) becomes one WebhookDelivery per enabled
 * webhook of its name, in one transaction that also stamps the event's `deliveredAt` (here: "handed to
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

/** Fans one event out; false when another instance already had it. */
export async function fanOut(deps: Deps, event: EventOutboxRow): Promise<boolean> {
  const now = deps.clock.now();
  return deps.storage.fork().transactional(async (em) => {
    const won = await em.nativeUpdate(EventOutbox, { id: event.id, deliveredAt: null }, { deliveredAt: now, attempts: event.attempts + 1 });
    if (won !== 1) return false;
    const hooks = await em.find(Webhook, { eventName: event.eventName, enabled: true }, { orderBy: { id: 'asc' } });
    for (const hook of hooks) {
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
    await em.flush();
    return true;
  });
}
