/**
 * Webhooks (docs/operations.md, docs/events.md): the admin registry of endpoints, the
 * delivery worker that drains the event outbox into signed POSTs with retries, and the delivery logs.
 */
import { defineModule } from '../manifest.ts';
import { Webhook, WebhookDelivery, WebhookLog } from './webhook.entity.ts';
import { webhookAdminOperations } from './webhooks.ops.ts';

export { Webhook, WebhookDelivery, WebhookLog, type WebhookRow, type WebhookLogRow, type WebhookDeliveryRow } from './webhook.entity.ts';
export { createWebhookWorker, webhookRetryDelayMs, DEFAULT_WEBHOOK_OPTIONS, type WebhookWorker, type WebhookWorkerOptions } from './worker.ts';
export { signBody } from './send.ts';
export { isRefusedAddress } from './address-policy.ts';

export const webhooksModule = defineModule({
  name: 'webhooks',
  entities: [Webhook, WebhookLog, WebhookDelivery],
  operations: webhookAdminOperations,
});
