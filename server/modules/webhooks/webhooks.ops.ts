/**
 * Admin webhook operations (docs/operations.md): `_add_webhook`,
 * `_update_webhook`, `_delete_webhook`, `_webhook`, `_webhooks`, `_webhook_logs`, `_test_endpoint`, served
 * over GraphQL, REST (/v1/admin/<name>) and gRPC from these definitions. Super-admin only: a webhook sends
 * user data to any address it names.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import {
  AddWebhookRequest, ListWebhookLogsRequest, ListWebhooksRequest, TestEndpointRequest, TestEndpointResponse,
  UpdateWebhookRequest, WebhookLogs, WebhookRequest, WebhookSchema, Webhooks, toPublicWebhook, toPublicWebhookLog,
} from './webhooks.schema.ts';
import { addWebhook, deleteWebhook, listWebhookLogs, listWebhooks, requireWebhook, updateWebhook } from './webhooks.service.ts';
import { checkedEndpoint, checkedEventName, checkedHeaders, descriptionFor } from './webhook-input.ts';
import { attemptWebhook, webhookBody } from './attempt.ts';
import { PRIVATE_ADDRESS_MESSAGE } from './address-policy.ts';

export const addWebhookOp = defineOperation({
  name: 'add_webhook',
  admin: true,
  kind: 'mutation',
  description: 'Registers an endpoint that receives one event (event_name, such as user.login or user.signup) as a signed POST',
  input: AddWebhookRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    await addWebhook(ctx.em, ctx.deps.clock.now(), ctx.deps.config.webhookAllowPrivateAddresses, input);
    return { message: 'webhook added successfully' };
  },
});

export const updateWebhookOp = defineOperation({
  name: 'update_webhook',
  admin: true,
  kind: 'mutation',
  description: "Changes a webhook's event, description, endpoint, headers or enabled state; omitted fields stay",
  input: UpdateWebhookRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    await updateWebhook(ctx.em, ctx.deps.clock.now(), ctx.deps.config.webhookAllowPrivateAddresses, input);
    return { message: 'webhook updated successfully' };
  },
});

export const deleteWebhookOp = defineOperation({
  name: 'delete_webhook',
  admin: true,
  kind: 'mutation',
  description: 'Deletes a webhook with its pending deliveries and its logs',
  input: WebhookRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    await deleteWebhook(ctx.em, input.id);
    return { message: 'webhook deleted successfully' };
  },
});

export const webhookOp = defineOperation({
  name: 'webhook',
  admin: true,
  kind: 'query',
  description: 'Reads one webhook',
  input: WebhookRequest,
  output: WebhookSchema,
  auth: 'admin',
  handler: async (input, ctx) => toPublicWebhook(await requireWebhook(ctx.em, input.id)),
});

export const webhooksOp = defineOperation({
  name: 'webhooks',
  admin: true,
  kind: 'query',
  description: 'Lists webhooks, newest first',
  input: ListWebhooksRequest,
  output: Webhooks,
  auth: 'admin',
  handler: async (input, ctx) => {
    const page = await listWebhooks(ctx.em, input.pagination);
    return { webhooks: page.items.map(toPublicWebhook), pagination: page.pagination };
  },
});

export const webhookLogsOp = defineOperation({
  name: 'webhook_logs',
  admin: true,
  kind: 'query',
  description: 'Lists delivery attempts, newest first, of all webhooks or of one',
  input: ListWebhookLogsRequest,
  output: WebhookLogs,
  auth: 'admin',
  handler: async (input, ctx) => {
    const page = await listWebhookLogs(ctx.em, input.pagination, input.webhook_id || undefined);
    return { webhook_logs: page.items.map(toPublicWebhookLog), pagination: page.pagination };
  },
});

/** A stand-in user for test sends: no real account's data leaves on a test. */
const SAMPLE_USER = {
  id: '00000000-0000-0000-0000-000000000000',
  email: 'test-user@example.com',
  email_verified: true,
  given_name: 'Test',
  family_name: 'User',
  signup_methods: 'basic_auth',
  roles: ['user'],
  created_at: 0,
  updated_at: 0,
};

/** docs/events.md: group events carry `group {id, org_id, display_name, external_id}`. */
const SAMPLE_GROUP = { id: '00000000-0000-0000-0000-000000000000', org_id: '', display_name: 'Test group', external_id: '' };

export const testEndpointOp = defineOperation({
  name: 'test_endpoint',
  admin: true,
  kind: 'mutation',
  description: 'Sends one signed sample event to an endpoint and answers its HTTP status and body (same address rules as delivery)',
  input: TestEndpointRequest,
  output: TestEndpointResponse,
  auth: 'admin',
  // Nothing is written, and no transaction may span a network call (storage/types.ts rule 9).
  transaction: false,
  handler: async (input, ctx) => {
    const { config } = ctx.deps;
    const eventName = checkedEventName(input.event_name);
    const target = {
      id: '',
      eventName,
      eventDescription: descriptionFor(eventName, input.event_description),
      endpoint: checkedEndpoint(input.endpoint, config.webhookAllowPrivateAddresses),
      headers: checkedHeaders(input.headers),
    };
    const payload: Record<string, unknown> = eventName.startsWith('group.') ? { group: SAMPLE_GROUP } : { user: SAMPLE_USER };
    if (eventName === 'user.login' || eventName === 'user.signup') payload.auth_recipe = 'basic_auth';
    const result = await attemptWebhook(config, target, webhookBody(target, payload), {});
    if (result.refused) throw AppError.invalid(`endpoint: ${PRIVATE_ADDRESS_MESSAGE}`);
    if (result.status === 0) throw AppError.precondition(`endpoint did not answer: ${result.response}`);
    return { http_status: result.status, response: result.response };
  },
});

export const webhookAdminOperations = [
  addWebhookOp, updateWebhookOp, deleteWebhookOp, webhookOp, webhooksOp, webhookLogsOp, testEndpointOp,
];
