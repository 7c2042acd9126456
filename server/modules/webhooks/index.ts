/**
 * Webhooks (docs/operations.md, docs/events.md): the admin registry of endpoints, the
 * delivery worker that drains the event outbox into signed POSTs with retries, and the delivery logs.
 */
import { defineModule, defineWorker } from '../manifest.ts';
import { Webhook, WebhookDelivery, WebhookLog } from './webhook.entity.ts';
import { webhookAdminOperations } from './webhooks.ops.ts';
import { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './worker.ts';
import { WEBHOOK_BACKLOG_METRIC, WEBHOOK_DELIVERIES_METRIC } from './webhook-metrics.ts';
import { createWebhookRetentionWorker } from './retention.ts';
import type { RetentionOptions, RetentionWorker } from '../audit/index.ts';

export { Webhook, WebhookDelivery, WebhookLog, type WebhookRow, type WebhookLogRow, type WebhookDeliveryRow } from './webhook.entity.ts';
export { createWebhookWorker, webhookRetryDelayMs, DEFAULT_WEBHOOK_OPTIONS, type WebhookWorker, type WebhookWorkerOptions, type WebhookWorkerStats } from './worker.ts';
export { signBody, postWebhook } from './send.ts';
export { isRefusedAddress } from './address-policy.ts';
export { forgetWebhookHistoryNaming } from './erase.ts';
export { WEBHOOK_BACKLOG_METRIC, WEBHOOK_DELIVERIES_METRIC } from './webhook-metrics.ts';

export const webhooksModule = defineModule({
  name: 'webhooks',
  entities: [Webhook, WebhookLog, WebhookDelivery],
  operations: webhookAdminOperations,
  // Drains the event outbox into deliveries in the background (docs/architecture.md#background-workers).
  workers: [
    defineWorker<WebhookWorker, WebhookWorkerOptions>({ name: 'webhooks', create: createWebhookWorker }),
    // Deletes old webhook logs and fully delivered events (docs/configuration.md#retention).
    defineWorker<RetentionWorker, RetentionOptions>({ name: 'webhook-retention', create: createWebhookRetentionWorker }),
  ],
  metrics: [WEBHOOK_DELIVERIES_METRIC, WEBHOOK_BACKLOG_METRIC],
});
