/**
 * Writing and reading the event outbox. recordEvent only adds the row to the caller's unit of work: the
 * caller's transaction flushes it together with the change, and a rollback drops both (the transactional
 * outbox pattern; storage/types.ts rule 9 keeps network delivery out of that transaction).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { EventOutbox, type EventOutboxRow } from './event-outbox.entity.ts';
import { isEventName, type EventName } from './event-names.ts';

/**
 * Adds an event to the unit of work of `em` (no flush, no await needed). Throws on a name outside
 * the list of docs/events.md: that is a wiring mistake, not a caller's.
 */
export function recordEvent(em: EntityManager, name: EventName | string, payload: Record<string, unknown>, clock: Clock): EventOutboxRow {
  if (!isEventName(name)) throw new Error(`unknown event name ${JSON.stringify(name)}`);
  const row = em.create(EventOutbox, {
    id: randomUUID(),
    eventName: name,
    // A copy, so that later changes to the caller's object cannot alter what was recorded.
    payload: structuredClone(payload),
    createdAt: clock.now(),
    deliveredAt: null,
    attempts: 0,
  });
  em.persist(row);
  return row;
}

export interface ListEventsQuery {
  eventName?: EventName;
  /** Only events not delivered yet (the webhook worker's view). */
  undeliveredOnly?: boolean;
  limit: number;
}

/** Oldest first: the order in which the events happened and are to be delivered. */
export async function listEvents(em: EntityManager, query: ListEventsQuery): Promise<EventOutboxRow[]> {
  const where: FilterQuery<EventOutboxRow> = {};
  if (query.eventName) where.eventName = query.eventName;
  if (query.undeliveredOnly) where.deliveredAt = null;
  return em.find(EventOutbox, where, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: Math.max(1, Math.floor(query.limit)) });
}
