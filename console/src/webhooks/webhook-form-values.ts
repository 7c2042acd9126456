/** The webhook form's values (headers as rows, so they can be edited one by one) and their wire shape. */
import type { Webhook, WebhookFields } from './api.ts';

export interface WebhookFormValues {
  eventName: string;
  description: string;
  endpoint: string;
  enabled: boolean;
  headers: { name: string; value: string }[];
}

export const emptyWebhookForm: WebhookFormValues = { eventName: '', description: '', endpoint: '', enabled: true, headers: [] };

export function webhookFormValues(webhook: Webhook | undefined): WebhookFormValues {
  if (!webhook) return emptyWebhookForm;
  return {
    eventName: webhook.event_name,
    description: webhook.event_description,
    endpoint: webhook.endpoint,
    enabled: webhook.enabled,
    // A Map on the wire; the server stores string values only, so String() changes nothing it sends.
    headers: Object.entries(webhook.headers ?? {}).map(([name, value]) => ({ name, value: String(value) })),
  };
}

export function webhookFields(values: WebhookFormValues): WebhookFields {
  return {
    event_name: values.eventName,
    event_description: values.description.trim(),
    endpoint: values.endpoint.trim(),
    enabled: values.enabled,
    headers: Object.fromEntries(values.headers.map((h) => [h.name.trim(), h.value])),
  };
}
