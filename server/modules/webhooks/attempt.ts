/**
 * One delivery attempt as the receiver sees it (docs/events.md): the JSON body
 * `{webhook_id, event_name, event_description, user, auth_recipe?}` (group events: `group`), signed with
 * `X-Service-Signature: hex(HMAC-SHA256(client secret, raw body))`, the webhook's own headers, and the
 * delivery id in `X-Service-Delivery`, the same on every retry: delivery is at least once (a crash between
 * the receiver's answer and the commit of the result resends), so receivers deduplicate on it.
 */
import type { Config } from '../../config/flags.ts';
import { postWebhook, signBody, failureReason, type WebhookAgents } from './send.ts';

export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookTarget {
  id: string;
  eventName: string;
  eventDescription: string;
  endpoint: string;
  headers: Record<string, string>;
}

export function webhookBody(target: WebhookTarget, payload: Record<string, unknown>): string {
  const { webhook_id: _w, event_name: _n, event_description: _d, ...rest } = payload;
  return JSON.stringify({ webhook_id: target.id, event_name: target.eventName, event_description: target.eventDescription, ...rest });
}

export interface AttemptResult {
  /** 0 when no HTTP answer came. */
  status: number;
  /** The receiver's answer (capped), or why there was none. */
  response: string;
  ok: boolean;
  /** No answer because the address is refused: retrying cannot help. */
  refused: boolean;
}

export async function attemptWebhook(
  config: Pick<Config, 'clientSecret' | 'webhookAllowPrivateAddresses'>,
  target: WebhookTarget,
  body: string,
  options: { deliveryId?: string; timeoutMs?: number; cancel?: AbortSignal; agents?: WebhookAgents },
): Promise<AttemptResult> {
  const headers: Record<string, string> = {
    ...target.headers,
    'content-type': 'application/json',
    'user-agent': 'Portcullis-Webhooks',
    'x-service-signature': signBody(config.clientSecret ?? '', body),
  };
  if (options.deliveryId) headers['x-service-delivery'] = options.deliveryId;
  try {
    const res = await postWebhook(target.endpoint, body, headers, {
      timeoutMs: options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
      allowPrivate: config.webhookAllowPrivateAddresses,
      cancel: options.cancel,
      agents: options.agents,
    });
    return { status: res.status, response: res.text, ok: res.status >= 200 && res.status < 300, refused: false };
  } catch (err) {
    return { status: 0, response: failureReason(err), ok: false, refused: err instanceof Error && err.name === 'RefusedAddressError' };
  }
}
