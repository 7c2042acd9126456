/**
 * Wire shapes of the webhook operations (docs/api-overview.md#resources-and-fields, "Webhook, WebhookLog"; docs/operations.md:
 * `_add_webhook`, `_update_webhook`, `_test_endpoint`; docs/operations.md endpoint table).
 */
import { s, type Static } from '../../ops/schema.ts';
import { Pagination, PaginationRequest } from '../../ops/pagination.ts';
import { unixSeconds } from '../users/index.ts';
import type { WebhookLogRow, WebhookRow } from './webhook.entity.ts';

const eventName = s.string({ minLength: 1, maxLength: 64 });
const eventDescription = s.string({ maxLength: 255 });
const endpoint = s.string({ minLength: 1, maxLength: 2048 });
const headers = s.map({ description: 'extra request headers, name to string value' });
const id = s.string({ minLength: 1, maxLength: 64 });

export const WebhookSchema = s.object('Webhook', {
  id: s.string(),
  event_name: s.string(),
  event_description: s.string(),
  endpoint: s.string(),
  enabled: s.boolean(),
  headers: s.map(),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const WebhookLogSchema = s.object('WebhookLog', {
  id: s.string(),
  http_status: s.int64(),
  response: s.string(),
  request: s.string(),
  webhook_id: s.string(),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const AddWebhookRequest = s.object('AddWebhookRequest', {
  event_name: eventName,
  event_description: s.optional(eventDescription),
  endpoint,
  enabled: s.boolean(),
  headers: s.optional(headers),
});

/** Omitted fields stay as they are. */
export const UpdateWebhookRequest = s.object('UpdateWebhookRequest', {
  id,
  event_name: s.optional(eventName),
  event_description: s.optional(eventDescription),
  endpoint: s.optional(endpoint),
  enabled: s.optional(s.boolean()),
  headers: s.optional(headers),
});

export const WebhookRequest = s.object('WebhookRequest', { id });

export const ListWebhooksRequest = s.object('ListWebhooksRequest', {
  pagination: s.optional(PaginationRequest),
});

export const Webhooks = s.object('Webhooks', {
  webhooks: s.list(WebhookSchema),
  pagination: Pagination,
});

export const ListWebhookLogsRequest = s.object('ListWebhookLogsRequest', {
  pagination: s.optional(PaginationRequest),
  webhook_id: s.optional(s.string({ maxLength: 64 })),
});

export const WebhookLogs = s.object('WebhookLogs', {
  webhook_logs: s.list(WebhookLogSchema),
  pagination: Pagination,
});

export const TestEndpointRequest = s.object('TestEndpointRequest', {
  endpoint,
  event_name: eventName,
  event_description: s.optional(eventDescription),
  headers: s.optional(headers),
});

export const TestEndpointResponse = s.object('TestEndpointResponse', {
  http_status: s.int64(),
  response: s.string(),
});

export type PublicWebhook = Static<typeof WebhookSchema>;
export type PublicWebhookLog = Static<typeof WebhookLogSchema>;

export function toPublicWebhook(row: WebhookRow): PublicWebhook {
  return {
    id: row.id,
    event_name: row.eventName,
    event_description: row.eventDescription,
    endpoint: row.endpoint,
    enabled: row.enabled,
    headers: row.headers,
    created_at: unixSeconds(row.createdAt)!,
    updated_at: unixSeconds(row.updatedAt)!,
  };
}

export function toPublicWebhookLog(row: WebhookLogRow): PublicWebhookLog {
  return {
    id: row.id,
    http_status: row.httpStatus,
    response: row.response,
    request: row.request,
    webhook_id: row.webhookId,
    created_at: unixSeconds(row.createdAt)!,
    updated_at: unixSeconds(row.updatedAt)!,
  };
}
