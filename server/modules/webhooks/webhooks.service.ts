/**
 * Storage of the webhook registry and its logs (docs/operations.md: add, update, delete, get, list,
 * logs). Deleting a webhook drops its pending deliveries and its logs with it.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Static } from '../../ops/schema.ts';
import { paginate, type Page, type PaginationRequest } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { Webhook, WebhookDelivery, WebhookLog, type WebhookLogRow, type WebhookRow } from './webhook.entity.ts';
import { checkedEndpoint, checkedEventName, checkedHeaders, descriptionFor } from './webhook-input.ts';
import type { AddWebhookRequest, UpdateWebhookRequest } from './webhooks.schema.ts';

export async function addWebhook(em: EntityManager, now: Date, allowPrivate: boolean, input: Static<typeof AddWebhookRequest>): Promise<WebhookRow> {
  const eventName = checkedEventName(input.event_name);
  const row = em.create(Webhook, {
    id: randomUUID(),
    eventName,
    eventDescription: descriptionFor(eventName, input.event_description),
    endpoint: checkedEndpoint(input.endpoint, allowPrivate),
    enabled: input.enabled,
    headers: checkedHeaders(input.headers),
    createdAt: now,
    updatedAt: now,
  });
  em.persist(row);
  await em.flush();
  return row;
}

export async function requireWebhook(em: EntityManager, id: string): Promise<WebhookRow> {
  const row = await em.findOne(Webhook, { id });
  if (!row) throw AppError.notFound('webhook not found');
  return row;
}

export async function updateWebhook(em: EntityManager, now: Date, allowPrivate: boolean, input: Static<typeof UpdateWebhookRequest>): Promise<WebhookRow> {
  const row = await requireWebhook(em, input.id);
  if (input.event_name !== undefined) {
    const eventName = checkedEventName(input.event_name);
    // A description that was the default follows a new event name unless a new one is given.
    if (input.event_description === undefined && row.eventDescription === descriptionFor(row.eventName, undefined)) {
      row.eventDescription = descriptionFor(eventName, undefined);
    }
    row.eventName = eventName;
  }
  if (input.event_description !== undefined) row.eventDescription = descriptionFor(row.eventName, input.event_description);
  if (input.endpoint !== undefined) row.endpoint = checkedEndpoint(input.endpoint, allowPrivate);
  if (input.enabled !== undefined) row.enabled = input.enabled;
  if (input.headers !== undefined) row.headers = checkedHeaders(input.headers);
  row.updatedAt = now;
  await em.flush();
  return row;
}

export async function deleteWebhook(em: EntityManager, id: string): Promise<void> {
  const row = await requireWebhook(em, id);
  await em.nativeDelete(WebhookDelivery, { webhookId: row.id });
  await em.nativeDelete(WebhookLog, { webhookId: row.id });
  await em.nativeDelete(Webhook, { id: row.id });
}

/** Newest first; the id breaks ties so that pages neither repeat nor skip. */
export function listWebhooks(em: EntityManager, pagination: Static<typeof PaginationRequest> | undefined): Promise<Page<WebhookRow>> {
  return paginate(em, Webhook, {}, pagination, { createdAt: 'desc', id: 'desc' });
}

export function listWebhookLogs(em: EntityManager, pagination: Static<typeof PaginationRequest> | undefined, webhookId?: string): Promise<Page<WebhookLogRow>> {
  const where: FilterQuery<WebhookLogRow> = webhookId ? { webhookId } : {};
  return paginate(em, WebhookLog, where, pagination, { createdAt: 'desc', id: 'desc' });
}
