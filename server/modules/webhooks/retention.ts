/**
 * Retention of webhook history (docs/configuration.md#retention), pruned in the background in bounded
 * batches by the sweeper of modules/audit (its lease keeps it to one instance at a time):
 *
 * - webhook logs (one per attempt, docs/events.md) older than --webhook-log-retention-days, except the logs
 *   of a delivery still pending or being sent, so that a delivery being retried keeps its whole history;
 * - events of the outbox (modules/events) handed to webhook delivery more than
 *   --webhook-event-retention-days ago whose deliveries all succeeded. A delivery row is written in the
 *   same transaction that stamps the event's `deliveredAt` (fan-out.ts) and deleted once delivered, so an
 *   event with no delivery row left is fully delivered; one with a pending, retrying or failed delivery
 *   stays. An event not yet handed over has no `deliveredAt` and is never a candidate.
 *
 * 0 days (the default) keeps them forever.
 */
import type { EntityManager } from '@mikro-orm/core';
import { createRetentionWorker, pruneOldest, type RetentionOptions, type RetentionTask, type RetentionWorker } from '../audit/index.ts';
import { EventOutbox } from '../events/index.ts';
import { WebhookDelivery, WebhookLog } from './webhook.entity.ts';

/** The delivery states that may still send: pending (waiting for its next attempt) and sending (leased). */
const UNFINISHED = ['pending', 'sending'];

async function logsOfUnfinishedDeliveries(em: EntityManager, logIds: readonly string[]): Promise<ReadonlySet<string>> {
  const logs = await em.find(WebhookLog, { id: { $in: [...logIds] }, deliveryId: { $ne: null } }, { fields: ['id', 'deliveryId'] });
  const deliveryIds = [...new Set(logs.map((log) => log.deliveryId!))];
  if (deliveryIds.length === 0) return new Set();
  const unfinished = await em.find(WebhookDelivery, { id: { $in: deliveryIds }, status: { $in: UNFINISHED } }, { fields: ['id'] });
  const open = new Set(unfinished.map((delivery) => delivery.id));
  return new Set(logs.filter((log) => open.has(log.deliveryId!)).map((log) => log.id));
}

async function eventsWithDeliveries(em: EntityManager, eventIds: readonly string[]): Promise<ReadonlySet<string>> {
  const deliveries = await em.find(WebhookDelivery, { eventId: { $in: [...eventIds] } }, { fields: ['id', 'eventId'] });
  return new Set(deliveries.map((delivery) => delivery.eventId));
}

export const webhookLogRetentionTask: RetentionTask = {
  name: 'webhook_logs',
  retentionDays: (config) => config.webhookLogRetentionDays,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, WebhookLog, 'createdAt', cutoff, limit, after, (ids) => logsOfUnfinishedDeliveries(em, ids)),
};

export const webhookEventRetentionTask: RetentionTask = {
  name: 'events_outbox',
  retentionDays: (config) => config.webhookEventRetentionDays,
  pruneBatch: (em, cutoff, limit, after) => pruneOldest(em, EventOutbox, 'deliveredAt', cutoff, limit, after, (ids) => eventsWithDeliveries(em, ids)),
};

export function createWebhookRetentionWorker(options: Partial<RetentionOptions> = {}): RetentionWorker {
  return createRetentionWorker('webhook-retention', [webhookLogRetentionTask, webhookEventRetentionTask], options);
}
