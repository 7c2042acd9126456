import { defineEntity, p } from '@mikro-orm/core';

/**
 * The durable outbox of user and group events (docs/events.md): a row is written in the same
 * transaction as the change it reports, so an event exists exactly when its change was committed. Webhook
 * delivery (docs/events.md, modules/webhooks) reads rows without `deliveredAt`, turns each into one
 * delivery per webhook and sets `deliveredAt` (handed over) and `attempts` in the same transaction.
 */
export const EventOutbox = defineEntity({
  name: 'EventOutbox',
  tableName: 'events_outbox',
  properties: {
    id: p.string().primary().length(36),
    eventName: p.string().length(64).index(),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().index(),
    // Webhook fan-out (modules/webhooks/fan-out.ts) looks for `deliveredAt IS NULL` on every poll.
    deliveredAt: p.datetime().nullable().index(),
    attempts: p.integer(),
  },
});

export type EventOutboxRow = InstanceType<typeof EventOutbox.class>;
