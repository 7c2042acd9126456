import { defineEntity, p } from '@mikro-orm/core';

/**
 * A registered webhook (docs/api-overview.md#resources-and-fields, "Webhook"): one endpoint subscribed to one event name.
 * `headers` are sent with every delivery; they may hold a receiver's credential, so they are never logged.
 */
export const Webhook = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  properties: {
    id: p.string().primary().length(36),
    eventName: p.string().length(64).index(),
    eventDescription: p.string().length(255),
    endpoint: p.text(),
    enabled: p.boolean(),
    headers: p.json<Record<string, string>>(),
    createdAt: p.datetime().index(),
    updatedAt: p.datetime(),
  },
});

/**
 * One attempt to deliver to a webhook (docs/api-overview.md#resources-and-fields, "WebhookLog"; docs/events.md: one log per attempt).
 * `request` is the exact JSON body sent, `response` the receiver's answer capped at 1 MiB. Both are JSON
 * columns holding a string: MariaDB's TEXT stops at 64 KiB, its JSON (LONGTEXT) does not.
 */
export const WebhookLog = defineEntity({
  name: 'WebhookLog',
  tableName: 'webhook_logs',
  properties: {
    id: p.string().primary().length(36),
    webhookId: p.string().length(36).index(),
    /** The delivery (WebhookDelivery.id, header X-Service-Delivery) this attempt belongs to; null for none. */
    deliveryId: p.string().length(36).nullable(),
    /** 0 when no HTTP answer came (refused address, connection error, timeout). */
    httpStatus: p.integer(),
    request: p.json<string>(),
    response: p.json<string>(),
    createdAt: p.datetime().index(),
    updatedAt: p.datetime(),
  },
});

/**
 * One event to one webhook: the unit of delivery, so that each webhook's attempts, backoff and lease are
 * its own and a slow or dead endpoint holds up no other. Its id is the stable delivery id the receiver
 * sees in X-Service-Delivery on every attempt, to make at-least-once delivery idempotent. A delivered row
 * is deleted (its WebhookLog rows remain); one that exhausted its attempts stays as `failed`.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.string().primary().length(36),
    eventId: p.string().length(36),
    webhookId: p.string().length(36).index(),
    eventName: p.string().length(64),
    /** The event's payload (user, auth_recipe, group), copied at fan-out. */
    payload: p.json<Record<string, unknown>>(),
    /** pending, sending (claimed until leaseUntil) or failed. */
    status: p.string().length(16),
    attempts: p.integer(),
    nextAttemptAt: p.datetime().index(),
    leaseUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  // One delivery per (event, webhook), whatever the number of instances fanning out.
  uniques: [{ name: 'webhook_deliveries_event_webhook', properties: ['eventId', 'webhookId'] }],
});

export type WebhookRow = InstanceType<typeof Webhook.class>;
export type WebhookLogRow = InstanceType<typeof WebhookLog.class>;
export type WebhookDeliveryRow = InstanceType<typeof WebhookDelivery.class>;
