/**
 * The webhook registry's server calls (docs/operations.md; docs/api-overview.md#resources-and-fields, "Webhook, WebhookLog"):
 * the admin GraphQL fields `_webhooks`, `_webhook`, `_webhook_logs`, `_add_webhook`, `_update_webhook`,
 * `_delete_webhook` and `_test_endpoint` (server/modules/webhooks/webhooks.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type Output } from '../../../ui-shared/contract/call.ts';
import type { MessageAnswer, PageRequest } from '../api/types.ts';

/** docs/events.md: the thirteen names a webhook can subscribe to, the server's own list. */
export { EVENT_NAMES as WEBHOOK_EVENTS } from '../../../ui-shared/contract/constants.ts';

export type Webhook = Output<'webhook'>;

/** One delivery attempt: `request` is the body sent, `response` the receiver's answer (capped at 1 MiB). */
export type WebhookLog = Output<'webhook_logs'>['webhook_logs'][number];

/** What the webhook form edits, every field set. */
export type WebhookFields = Pick<Webhook, 'event_name' | 'event_description' | 'endpoint' | 'enabled' | 'headers'>;

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  list: (page: PageRequest) => [...webhookKeys.lists(), page] as const,
  one: (id: string) => [...webhookKeys.all, 'one', id] as const,
  logs: (id: string) => [...webhookKeys.all, 'logs', id] as const,
};

export function useWebhooks(page: PageRequest) {
  return useQuery({
    queryKey: webhookKeys.list(page),
    queryFn: ({ signal }) => call('webhooks', { pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useWebhook(id: string) {
  return useQuery({
    queryKey: webhookKeys.one(id),
    queryFn: ({ signal }) => call('webhook', { id }, signal),
  });
}

export function useWebhookLogs(webhookId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...webhookKeys.logs(webhookId), page],
    queryFn: ({ signal }) => call('webhook_logs', { webhook_id: webhookId, pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}

export async function addWebhook(fields: WebhookFields): Promise<MessageAnswer> {
  return call('add_webhook', fields);
}

/** Omitted fields stay as they are on the server. */
export async function updateWebhook(id: string, changes: Partial<WebhookFields>): Promise<MessageAnswer> {
  return call('update_webhook', { id, ...changes });
}

export async function deleteWebhook(id: string): Promise<MessageAnswer> {
  return call('delete_webhook', { id });
}

export type TestAnswer = Output<'test_endpoint'>;

/** Sends one signed sample event (no real user's data) and answers the receiver's status and body. */
export async function testEndpoint(target: Pick<WebhookFields, 'endpoint' | 'event_name' | 'headers'>): Promise<TestAnswer> {
  return call('test_endpoint', target);
}
