/**
 * The webhook registry's server calls (specification part 4.2; reference.md "Types: Webhook, WebhookLog"):
 * the admin GraphQL fields `_webhooks`, `_webhook`, `_webhook_logs`, `_add_webhook`, `_update_webhook`,
 * `_delete_webhook` and `_test_endpoint` (server/modules/webhooks/webhooks.ops.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer, PageRequest, Pagination } from '../api/types.ts';

/** reference.md "Events": the thirteen names a webhook can subscribe to, the server's own list. */
export { EVENT_NAMES as WEBHOOK_EVENTS } from '../../../ui-shared/contract/constants.ts';

export interface Webhook {
  id: string;
  event_name: string;
  event_description: string;
  endpoint: string;
  enabled: boolean;
  headers: Record<string, string>;
  created_at: number;
  updated_at: number;
}

/** One delivery attempt: `request` is the body sent, `response` the receiver's answer (capped at 1 MiB). */
export interface WebhookLog {
  id: string;
  http_status: number;
  request: string;
  response: string;
  webhook_id: string;
  created_at: number;
}

export interface WebhookFields {
  event_name: string;
  event_description: string;
  endpoint: string;
  enabled: boolean;
  headers: Record<string, string>;
}

const WEBHOOK_FIELDS = 'id event_name event_description endpoint enabled headers created_at updated_at';
const PAGINATION_FIELDS = 'pagination { limit page offset total }';

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
    queryFn: async ({ signal }) => {
      const query = `query Webhooks($params: ListWebhooksRequest!) { _webhooks(params: $params) {
        webhooks { ${WEBHOOK_FIELDS} } ${PAGINATION_FIELDS} } }`;
      type Answer = { _webhooks: { webhooks: Webhook[]; pagination: Pagination } };
      return (await graphql<Answer>(query, { params: { pagination: page } }, signal))._webhooks;
    },
    placeholderData: keepPreviousData,
  });
}

export function useWebhook(id: string) {
  return useQuery({
    queryKey: webhookKeys.one(id),
    queryFn: async ({ signal }) => {
      const query = `query Webhook($params: WebhookRequest!) { _webhook(params: $params) { ${WEBHOOK_FIELDS} } }`;
      return (await graphql<{ _webhook: Webhook }>(query, { params: { id } }, signal))._webhook;
    },
  });
}

export function useWebhookLogs(webhookId: string, page: PageRequest) {
  return useQuery({
    queryKey: [...webhookKeys.logs(webhookId), page],
    queryFn: async ({ signal }) => {
      const query = `query WebhookLogs($params: ListWebhookLogsRequest!) { _webhook_logs(params: $params) {
        webhook_logs { id http_status request response webhook_id created_at } ${PAGINATION_FIELDS} } }`;
      type Answer = { _webhook_logs: { webhook_logs: WebhookLog[]; pagination: Pagination } };
      return (await graphql<Answer>(query, { params: { webhook_id: webhookId, pagination: page } }, signal))._webhook_logs;
    },
    placeholderData: keepPreviousData,
  });
}

export async function addWebhook(fields: WebhookFields): Promise<MessageAnswer> {
  const mutation = 'mutation AddWebhook($params: AddWebhookRequest!) { _add_webhook(params: $params) { message } }';
  return (await graphql<{ _add_webhook: MessageAnswer }>(mutation, { params: fields }))._add_webhook;
}

/** Omitted fields stay as they are on the server. */
export async function updateWebhook(id: string, changes: Partial<WebhookFields>): Promise<MessageAnswer> {
  const mutation = 'mutation UpdateWebhook($params: UpdateWebhookRequest!) { _update_webhook(params: $params) { message } }';
  return (await graphql<{ _update_webhook: MessageAnswer }>(mutation, { params: { id, ...changes } }))._update_webhook;
}

export async function deleteWebhook(id: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteWebhook($params: WebhookRequest!) { _delete_webhook(params: $params) { message } }';
  return (await graphql<{ _delete_webhook: MessageAnswer }>(mutation, { params: { id } }))._delete_webhook;
}

export interface TestAnswer {
  http_status: number;
  response: string;
}

/** Sends one signed sample event (no real user's data) and answers the receiver's status and body. */
export async function testEndpoint(target: Pick<WebhookFields, 'endpoint' | 'event_name' | 'headers'>): Promise<TestAnswer> {
  const mutation = 'mutation TestEndpoint($params: TestEndpointRequest!) { _test_endpoint(params: $params) { http_status response } }';
  return (await graphql<{ _test_endpoint: TestAnswer }>(mutation, { params: target }))._test_endpoint;
}
