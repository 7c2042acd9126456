import { defineEntity, p } from '@mikro-orm/core';

/**
 * The durable outbox of user and group events (reference.md "Events"): a row is written in the same
 * transaction as the change it reports, so an event exists exactly when its change was committed. Webhook
 * delivery (specification part 6), still to come, reads undelivered rows, counts its attempts and sets
 * `deliveredAt`.
 */
export const EventOutbox = defineEntity({
  name: 'EventOutbox',
  tableName: 'events_outbox',
  properties: {
    id: p.string().primary().length(36),
    eventName: p.string().length(64).index(),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().index(),
    deliveredAt: p.datetime().nullable(),
    attempts: p.integer(),
  },
});

export type EventOutboxRow = InstanceType<typeof EventOutbox.class>;
